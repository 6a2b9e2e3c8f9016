// A standalone script, as a merchant writes one: it awaits a webhook that is being retried, with
// nothing else (no server, no socket) to keep Node running. Run by webhooks.test.ts in a process
// of its own, where it must finish its `await` and exit 0.
import { createSandbox } from '../../../src/testing/index.js';
import { createOrder, dropOff, setUpAccount } from '../sandbox.js';

let calls = 0;
const sandbox = createSandbox({
  webhookRetry: { attempts: 3, baseDelayMs: 200 },
  // The receiver refuses the first attempt and accepts the retry; an in-process stub, so no socket is open.
  webhookFetch: async () => new Response(null, { status: ++calls === 1 ? 500 : 200 }),
});
await setUpAccount(sandbox);
const created = await createOrder(sandbox, { type: 10, dropOffAddress: dropOff, webhookUrl: 'https://shop.example/webhooks' });
await sandbox.advance(created.body.data.trackingNumber as string, { to: 20 });
console.log(`after advance: ${sandbox.webhookLog()[0]?.status}`);
await sandbox.drainWebhooks();
console.log(
  `after drain: ${sandbox.webhookLog()[0]?.status}, attempts ${sandbox
    .webhookLog()[0]
    ?.attempts.map((attempt) => attempt.status)
    .join(' ')}`,
);
await sandbox.close();
