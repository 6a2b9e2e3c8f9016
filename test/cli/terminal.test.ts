import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes.js';
import { BIN, csv, requireBuilt, resultRows, row, run, start, workspace } from './cli.js';

// The command as a person sees it in a terminal (tmux: a real pseudo-terminal and its screen),
// and as a script of several steps uses it (`delivery-sdk sandbox`, then the other commands).
const exec = promisify(execFile);
const SOCKET = `delivery-sdk-cli-${process.pid}`;
const tmux = (...args: string[]) => exec('tmux', ['-L', SOCKET, '-f', '/dev/null', ...args]);

let files: ReturnType<typeof workspace>;
beforeAll(() => {
  requireBuilt();
  files = workspace();
});
afterAll(async () => {
  await tmux('kill-server').catch(() => {});
  files?.remove();
});

// Without tmux the terminal test is skipped, saying so; under CI=true (.ci/run installs it) it fails instead.
const hasTmux = await exec('tmux', ['-V']).then(
  () => true,
  () => false,
);
if (!hasTmux && process.env['CI'] !== 'true')
  console.warn('test/cli/terminal.test.ts: tmux is not installed (apt-get install tmux): the terminal test is skipped');

describe.skipIf(!hasTmux && process.env['CI'] !== 'true')('delivery-sdk orders import in a terminal', { timeout: 90_000 }, () => {
  it('draws its progress as one line redrawn in place: a bar, rows read, created, refused, rate and time', async () => {
    const file = files.file('terminal.csv', csv(...Array.from({ length: 200 }, (_, i) => row(`T-${i + 1}`, { cod: i === 7 ? '45000' : '100' }))));
    const results = `${files.dir}/terminal-results.csv`;
    // stdout to a file: the screen then shows what stderr, a terminal, drew. The pane stays once the command ends.
    const command = `'${process.execPath}' '${BIN}' orders import '${file}' --sandbox --chunk-size 10 --results '${results}' > '${files.dir}/stdout.txt'; echo "exit=$?"; tmux -L ${SOCKET} wait-for -S done; sleep 600`;
    await tmux('new-session', '-d', '-s', 'cli', '-x', '150', '-y', '10', '-c', ROOT, command);
    await tmux('wait-for', 'done');
    const { stdout: screen } = await tmux('capture-pane', '-p', '-t', 'cli');
    const lines = screen.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\[#{20}\] 100% · 200 of 200 rows read · 199 created · 0 existed · 1 refused · 0 not sent · 0 unknown · [\d,]+ rows\/s · \d+(?:m\d\ds)?s in all$/,
    );
    expect(lines[1]).toBe('exit=1');
    expect(resultRows(files.read('terminal-results.csv'))).toHaveLength(200);
    expect(files.read('stdout.txt')).toContain('199 created, 0 existed, 1 refused');
  });
});

describe('delivery-sdk sandbox, for a script of several steps', { timeout: 90_000 }, () => {
  it('serves a sandbox holding a ready merchant that the other commands import into and print labels from', async () => {
    const sandbox = start(['sandbox', '--port', '0', '--control-token-file', `${files.dir}/token`]);
    try {
      const [, baseUrl] = await sandbox.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+\/v2) \(API key: sandbox-api-key\)/, 'stdout');
      expect(await sandbox.waitFor(/ready merchant/, 'stdout')).toBeTruthy();
      const env = { DELIVERY_BASE_URL: baseUrl, DELIVERY_API_KEY: 'sandbox-api-key' };
      const imported = await run(['orders', 'import', 'examples/data/orders-import.csv', '--results', `${files.dir}/steps.csv`, '--quiet'], env);
      expect(imported.code).toBe(0);
      const rows = resultRows(files.read('steps.csv'));
      expect(rows.map((r) => r['status'])).toEqual(['created', 'created', 'created', 'created', 'created']);
      const labels = await run(['labels', '--from-results', `${files.dir}/steps.csv`, '--out', `${files.dir}/labels`, '--json'], env);
      const printed = JSON.parse(labels.stdout);
      // The sample's Cash Collection and Customer Return Pickup rows have no airway bill.
      expect(printed.files[0].trackingNumbers).toEqual([rows[0], rows[1], rows[4]].map((r) => r?.['trackingNumber']));
      expect(printed.notPrintable.map((entry: { trackingNumber: string }) => entry.trackingNumber)).toEqual(
        [rows[2], rows[3]].map((r) => r?.['trackingNumber']),
      );
      expect(labels.code).toBe(1);
    } finally {
      sandbox.child.kill('SIGTERM');
      await sandbox.done;
    }
  });
});
