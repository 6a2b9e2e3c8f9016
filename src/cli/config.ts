// Which service a command talks to: the key and base URL from the environment or files, never
// from an argument (the command line is visible to every user of the machine), or `--sandbox`.
// Every command that calls the service takes these flags; another front end of the same
// configuration (an MCP server) imports this module as it is.
import { readFileSync } from 'node:fs';
import { DeliveryClient } from '../index.js';
import { UsageError } from './exit.js';

/** What the command adds to the SDK's User-Agent: the service tells its requests from a program's. */
const CLI_PRODUCT = 'cli';

/** The flags every command that calls the service takes. */
export const CONNECTION_OPTIONS = {
  'api-key-file': { type: 'string' },
  'base-url': { type: 'string' },
  sandbox: { type: 'boolean' },
  // Accepted only to refuse it with the reason: a key in the arguments is visible in `ps`.
  'api-key': { type: 'string' },
} as const;

export interface ConnectionFlags {
  'api-key-file'?: string | undefined;
  'base-url'?: string | undefined;
  sandbox?: boolean | undefined;
  'api-key'?: string | undefined;
}

export interface Connection {
  readonly client: DeliveryClient;
  /** Where the requests go: the base URL, or `the embedded sandbox`. */
  readonly target: string;
  close(): Promise<void>;
}

/** The client of the service the flags and the environment name; the embedded sandbox, with a ready merchant, for `--sandbox`. */
export async function connect(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): Promise<Connection> {
  if (flags['api-key'] !== undefined)
    throw new UsageError(
      '--api-key: the key is never taken from the command line, which every user of the machine can read (ps); set DELIVERY_API_KEY or pass --api-key-file FILE',
    );
  if (flags.sandbox === true) {
    if (flags['base-url'] !== undefined || flags['api-key-file'] !== undefined)
      throw new UsageError('--sandbox runs against an embedded sandbox: drop --base-url and --api-key-file');
    // Loaded for --sandbox alone: the sandbox is the larger part of the command's code, which a
    // command against the service never runs (compiling it cost an import 10 to 20 ms).
    const [{ createSandbox }, { readyMerchant }] = await Promise.all([import('../testing/index.js'), import('./ready-merchant.js')]);
    const sandbox = createSandbox();
    await readyMerchant(sandbox);
    const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch, userAgent: CLI_PRODUCT });
    return { client, target: 'the embedded sandbox', close: () => sandbox.close() };
  }
  const apiKey = keyOf(flags, env);
  const baseUrl = flags['base-url'] ?? nonEmpty(env['DELIVERY_BASE_URL']);
  if (baseUrl === undefined)
    throw new UsageError('no base URL: set DELIVERY_BASE_URL or pass --base-url URL (ending in /v2), or try it offline with --sandbox');
  return { client: new DeliveryClient({ apiKey, baseUrl, userAgent: CLI_PRODUCT }), target: baseUrl, close: async () => {} };
}

const nonEmpty = (text: string | undefined): string | undefined => (text === undefined || text.trim() === '' ? undefined : text.trim());

function keyOf(flags: ConnectionFlags, env: NodeJS.ProcessEnv): string {
  const file = flags['api-key-file'];
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`--api-key-file: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    // Its first line, as docs/cli.md says: a file may go on with a comment or another secret, never sent.
    const key = nonEmpty(text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0]);
    if (key === undefined) throw new UsageError(`--api-key-file: the first line of ${file} is empty`);
    return key;
  }
  const key = nonEmpty(env['DELIVERY_API_KEY']);
  if (key === undefined) throw new UsageError('no API key: set DELIVERY_API_KEY or pass --api-key-file FILE, or try it offline with --sandbox');
  return key;
}
