// Runs docs/sandbox.md's HTTP reference as written: its first block starts the sandbox CLI (the
// built `delivery-sdk-sandbox` that `npx` runs, on a free port instead of 4010, in a folder of its
// own), then every line of its curl blocks runs, in order, in one bash session. Each curl's answer
// is kept with the answer the page shows after it (`# {...}`, where `…` and `...` stand for
// anything), so a test can hold the page to what the sandbox answers.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ReceivedWebhook, startReceiver } from '../support/sandbox.js';
import { type Block, blocksOf } from './blocks.js';
import { root } from './pages.js';

/** The shell blocks of the page's HTTP reference, in order: the first starts the server. */
export const HTTP_REFERENCE: Block[] = blocksOf('docs/sandbox.md').filter((block) => block.lang === 'sh');

const CLI = join(root, 'dist/cli/sandbox.js');
const DOCUMENTED_PORT = '4010';
/** The webhook receiver the page points the sandbox at ("your endpoint"): here one of the test's own. */
const DOCUMENTED_RECEIVER = '127.0.0.1:3000';

export interface Answer {
  /** The curl command, as the page writes it. */
  command: string;
  output: string;
  /** Whether the output is JSON. */
  json: boolean;
  /** What the page shows it answers, as a pattern; undefined when it shows nothing. */
  documented: RegExp | undefined;
}

/** `# {...}` after a command, on its line or the lines below it: a pattern, `…` and `...` matching anything. */
function documentedPattern(text: string): RegExp {
  const parts = text.split(/…|\.\.\./).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*?')}$`, 's');
}

/** The curl commands of the blocks, each with the answer the page shows for it. */
function commandsOf(blocks: readonly Block[]): Array<{ command: string; documented: RegExp | undefined }> {
  const commands: Array<{ command: string; shown: string[] }> = [];
  for (const line of blocks.flatMap((block) => block.code.split('\n'))) {
    const trailing = / # ([{[].*)$/.exec(line);
    if (line.startsWith('curl ')) commands.push({ command: line, shown: trailing === null ? [] : [trailing[1] ?? ''] });
    else if (/^#\s+[{["]/.test(line) && commands.length > 0) commands.at(-1)?.shown.push(line.replace(/^#\s+/, ''));
    else if (!line.startsWith('#') && commands.length > 0 && !/^[A-Z]=/.test(line) && line.trim() !== '') {
      const last = commands.at(-1);
      if (last !== undefined) last.command += `\n${line}`;
    }
  }
  return commands.map(({ command, shown }) => ({ command, documented: shown.length === 0 ? undefined : documentedPattern(shown.join('')) }));
}

/** Starts the server line of the first block: its environment and options, but a free port; resolves with the port and what it printed. */
async function startServer(line: string, folder: string): Promise<{ child: ChildProcess; port: string; printed: string }> {
  const match = /^((?:\w+=\S+ )*)npx delivery-sdk-sandbox (.*)$/.exec(line);
  if (match === null) throw new Error(`the first line of the HTTP reference does not start the CLI: ${line}`);
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npx runs the built command)`);
  const env = Object.fromEntries(
    (match[1] ?? '')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => pair.split('=') as [string, string]),
  );
  const args = (match[2] ?? '').split(/\s+/).map((arg) => (arg === DOCUMENTED_PORT ? '0' : arg));
  const child = spawn(process.execPath, [CLI, ...args], { cwd: folder, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  const port = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      printed += chunk.toString('utf8');
      const found = /http:\/\/127\.0\.0\.1:(\d+)\/v2/.exec(printed);
      if (found !== null && printed.includes('Control token')) resolve(found[1] ?? '');
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the CLI exited (${code}) before it was ready: ${printed}`)));
  });
  return { child, port, printed };
}

function bash(script: string, folder: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`bash exited ${code}: ${err}`))));
  });
}

/**
 * Runs the blocks as the page writes them and returns every curl's answer, in order, and what the
 * CLI printed on start, with whether it matches what the first block shows.
 */
export async function runHttpReference(
  blocks: readonly Block[],
): Promise<{ answers: Answer[]; started: { printed: string; documented: RegExp[] }; webhooks: ReceivedWebhook[] }> {
  const [first, ...rest] = blocks;
  if (first === undefined) throw new Error('docs/sandbox.md has no shell block');
  const [serverLine = '', ...firstLines] = first.code.split('\n');
  const folder = mkdtempSync(join(tmpdir(), 'delivery-sdk-http-reference-'));
  const receiver = await startReceiver();
  const { child, port, printed } = await startServer(serverLine, folder);
  const ours = (text: string): string =>
    text.replaceAll(DOCUMENTED_PORT, port).replaceAll(DOCUMENTED_RECEIVER, receiver.url.slice('http://'.length).replace(/\/hooks$/, ''));
  try {
    const started = firstLines
      .filter((line) => line.startsWith('# ') && !line.startsWith('# Not run'))
      .map((line) => documentedPattern(line.slice(2).replaceAll(DOCUMENTED_PORT, port)));
    // Each curl's answer on lines of its own, with a line after it to split the output on.
    const script = ['set -e', 'curl() { command curl --max-time 20 "$@"; printf \'\\n@@@\\n\'; }', ...firstLines, ...rest.map((block) => block.code)].join(
      '\n',
    );
    const outputs = (await bash(ours(script), folder)).split('\n@@@\n').slice(0, -1);
    const commands = commandsOf(blocks.map((block) => ({ ...block, code: ours(block.code) })));
    if (outputs.length !== commands.length) throw new Error(`${commands.length} curl commands, ${outputs.length} answers`);
    const answers = commands.map(({ command, documented }, i) => {
      const output = (outputs[i] ?? '').trim();
      let json = true;
      try {
        JSON.parse(output);
      } catch {
        json = false;
      }
      return { command, output, json, documented };
    });
    return { answers, started: { printed, documented: started }, webhooks: receiver.received };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
    await receiver.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
