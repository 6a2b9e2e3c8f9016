// `delivery-sdk mcp`: the client's operations as tools of an MCP server over stdio, for an
// assistant (docs/mcp.md). Configured as the other commands are (config.ts); the MCP SDK, an
// optional peer dependency, loads with this command alone, and its absence is a usage error
// saying what to install.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { durationOf, parseOrUsage } from './args.js';
import { CONNECTION_OPTIONS, connect } from './config.js';
import { EXIT, type ExitCode, UsageError } from './exit.js';
import { type Io, note, say } from './output.js';
import { watchParent } from './parent-watch.js';
import { madeFolder } from './results.js';

export const MCP_HELP = `delivery-sdk mcp: the Delivery Service API as tools for an assistant (Model Context Protocol, over stdio).

Usage: delivery-sdk mcp [--allow-writes] [--out DIR] [--timeout 50s] [--sandbox]
One tool per operation of the SDK (deliveries_get, deliveries_track, deliveries_list, ...),
reads only unless --allow-writes, which adds those that change something at the service:
creates, updates, cancels (deliveries_terminate), deletes. Labels come back as resources,
and as files under --out DIR when given. --timeout bounds each tool's call (default 50s).
The key comes from DELIVERY_API_KEY or --api-key-file, the base URL from DELIVERY_BASE_URL;
--sandbox serves an embedded sandbox with a ready merchant, to try it offline.
Needs the MCP SDK beside delivery-sdk: npm install @modelcontextprotocol/sdk
docs/mcp.md lists the tools and shows how to add the server to Claude Desktop, VS Code and Cursor.`;

/** What the command says when the MCP SDK cannot be loaded: the one thing to do about it. */
const MISSING_SDK = 'delivery-sdk mcp needs the MCP SDK, an optional peer dependency: npm install @modelcontextprotocol/sdk (1.x), beside delivery-sdk';

/** The MCP entry and the stdio transport, or a usage error saying what to install when the MCP SDK is not there. */
async function loadMcp() {
  try {
    const [entry, stdio] = await Promise.all([import('../mcp/index.js'), import('@modelcontextprotocol/sdk/server/stdio.js')]);
    return { createMcpServer: entry.createMcpServer, StdioServerTransport: stdio.StdioServerTransport };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes('@modelcontextprotocol/sdk'))
      throw new UsageError(MISSING_SDK);
    throw error;
  }
}

/**
 * Writes `bytes` under `dir` as `name`, or `name-2`, `name-3`, ... when a file of that name is there
 * already (a server started again counts its files from 1): never over another file. Its path.
 */
function saveNew(dir: string, name: string, bytes: Uint8Array): string {
  // Made when the server started; again, should it have been removed since.
  mkdirSync(dir, { recursive: true });
  const dot = name.lastIndexOf('.');
  for (let n = 1; ; n++) {
    const path = join(dir, n === 1 ? name : `${name.slice(0, dot)}-${n}${name.slice(dot)}`);
    try {
      writeFileSync(path, bytes, { flag: 'wx' });
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** Serves until the assistant closes stdin, or a signal stops it; resolves once the server is connected. */
export async function mcpCommand(args: readonly string[], io: Io): Promise<ExitCode | 'serving'> {
  const { values } = parseOrUsage({
    args: [...args],
    options: {
      ...CONNECTION_OPTIONS,
      'allow-writes': { type: 'boolean' },
      out: { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) return (say(io, MCP_HELP), EXIT.ok);
  const timeout = values.timeout === undefined ? undefined : durationOf('--timeout', values.timeout);
  if (timeout === 0) throw new UsageError('--timeout: expected a duration of more than 0');
  const out = values.out === undefined ? undefined : resolve(values.out);
  // Made, or refused, before anything is served: not at the first label an assistant asks for.
  if (out !== undefined) madeFolder(out, '--out');
  const { createMcpServer, StdioServerTransport } = await loadMcp();
  const connection = await connect(values);
  const saveFile = out === undefined ? undefined : (name: string, bytes: Uint8Array): Promise<string> => Promise.resolve(saveNew(out, name, bytes));
  const server = createMcpServer({
    client: connection.client,
    allowWrites: values['allow-writes'] === true,
    timeout,
    saveFile,
    version: (createRequire(import.meta.url)('../../package.json') as { version: string }).version,
  });
  let stopping = false;
  const stop = (code: ExitCode): void => {
    if (stopping) return;
    stopping = true;
    void server
      .close()
      .catch(() => undefined)
      .then(() => connection.close())
      .finally(() => process.exit(code));
  };
  // The assistant ends the session by closing stdin; the transport then closes.
  server.onclose = () => stop(EXIT.ok);
  process.stdin.once('end', () => stop(EXIT.ok));
  process.once('SIGINT', () => stop(EXIT.interrupted));
  process.once('SIGTERM', () => stop(EXIT.terminated));
  // As the other commands: the starter's shell caught an interrupt (130), or it went away (143).
  watchParent((why) => stop(why === 'interrupted' ? EXIT.interrupted : EXIT.terminated));
  await server.connect(new StdioServerTransport());
  note(
    io,
    `delivery-sdk mcp: serving ${values['allow-writes'] === true ? 'every operation (--allow-writes)' : 'the operations that read'} of ${connection.target} over stdio.`,
  );
  return 'serving';
}
