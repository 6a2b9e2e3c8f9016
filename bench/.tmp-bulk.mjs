import { runChild, startServer } from './lib/child.mjs';
import { ensureKy, prepareTargets } from './lib/targets.mjs';
const targets = await prepareTargets('dist');
const kyPath = ensureKy();
const only = process.argv[2];
if (only === 'percall') {
  const server = await startServer('echo-server.mjs');
  const PER_CALL = { calls: 2_000, concurrency: 50, sequentialBlock: 100, concurrentBlock: 200, warmup: 300 };
  for (let run = 0; run < 3; run++) {
    const r = await runChild('per-call.mjs', { targets, kyPath, baseUrl: server.info.baseUrl, ...PER_CALL });
    for (const mode of ['sequential', 'concurrent']) {
      const m = r[mode];
      console.log(run, mode, Object.entries(m).map(([k, v]) => `${k}=${v.median.toFixed(3)}`).join(' '), 'valid on/off', (m.sdk.median / m.sdkUnvalidated.median).toFixed(3), 'sdk/ky', (m.sdk.median / m.ky.median).toFixed(3));
    }
  }
  await server.stop();
} else {
  for (const count of [10_000, 100_000]) {
    const sandbox = await startServer('sandbox-server.mjs', { targets });
    const r = await runChild('bulk.mjs', { targets, kyPath, ...sandbox.info, count, mode: 'rounds', rounds: count === 10_000 ? 5 : 2 });
    await sandbox.stop();
    console.log(JSON.stringify(r), 'ky/sdk time ratio', (r.kyOrdersPerSecond / r.ordersPerSecond).toFixed(3));
    const fresh = await startServer('sandbox-server.mjs', { targets });
    const m = await runChild('bulk.mjs', { targets, ...fresh.info, count, mode: 'memory' });
    await fresh.stop();
    console.log(JSON.stringify(m));
  }
}
