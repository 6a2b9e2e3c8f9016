// `node scripts/in-parallel.mjs <script> <script> ...`: runs the npm scripts at once, each one's
// output printed whole when it ends (not interleaved), and fails when any of them fails. `npm test`
// runs the type-check and the build this way: two single-threaded tsc passes, one per core.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const codes = await Promise.all(
  process.argv.slice(2).map(
    (script) =>
      new Promise((resolve) => {
        const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
        const output = [];
        child.stdout.on('data', (chunk) => output.push(chunk));
        child.stderr.on('data', (chunk) => output.push(chunk));
        child.once('error', (error) => resolve({ script, code: 1, output: `${error.message}\n` }));
        child.once('close', (code) => resolve({ script, code: code ?? 1, output: Buffer.concat(output).toString() }));
      }),
  ),
);
for (const { script, code, output } of codes) {
  process.stdout.write(`> npm run ${script}${code === 0 ? '' : ` (failed, exit code ${code})`}\n${output}`);
}
process.exit(codes.some(({ code }) => code !== 0) ? 1 : 0);
