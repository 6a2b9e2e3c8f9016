#!/usr/bin/env node
/**
 * `delivery-sdk`: the command line of the SDK, for operations people and CI scripts (docs/cli.md).
 * Node only, and a leaf: nothing of it, nor of the CSV library it reads files with, reaches the
 * main entry or a browser page.
 */
import { createRequire } from 'node:module';
import { EXIT, type ExitCode, UsageError } from './exit.js';
import { HISTORY_HELP, historyCommand } from './history.js';
import { IMPORT_HELP, importCommand } from './import.js';
import { Interrupt } from './interrupt.js';
import { LABELS_HELP, labelsCommand } from './labels.js';
import { MCP_HELP, mcpCommand } from './mcp.js';
import { ORDERS_HELP, ordersCommand } from './orders.js';
import { type Io, reportFailure, say } from './output.js';
import { didYouMean } from './suggest.js';

const HELP = `delivery-sdk: the Delivery Service API from the command line.

Usage: delivery-sdk orders import FILE [--results FILE] [--dry-run]   creates the orders of a CSV or JSON Lines file
       delivery-sdk orders get|track|cancel TRACKING_NUMBER            one order
       delivery-sdk orders wait TRACKING_NUMBER --until delivered|final|STATE --timeout 30m
       delivery-sdk labels TRACKING_NUMBER... | --from-results FILE --out DIR [--size A4|A6] [--lang ar|en]
       delivery-sdk history PHONE                                       a customer's delivery record
       delivery-sdk sandbox [--port 4010]                               the sandbox server, with a ready merchant
       delivery-sdk mcp [--allow-writes] [--out DIR]                    every operation as a tool for an assistant (MCP, stdio)

The key comes from DELIVERY_API_KEY or --api-key-file FILE, never from an argument; the base URL
(ending in /v2) from DELIVERY_BASE_URL or --base-url URL. --sandbox runs a command against an
embedded sandbox holding a ready merchant, to try it offline. --json writes one JSON document
(JSON Lines for import) to stdout and nothing else; progress and notes go to stderr.

Exit codes (the first that applies): 143 stopped (SIGTERM), 130 interrupted (Ctrl-C), 3 key or
subscription refused, 4 service unreachable, timed out or failing (5xx), 2 usage or input-file
error (nothing sent), 1 some rows refused, an order not found or not in a state that allows it,
0 done. 'delivery-sdk COMMAND --help' for each command; docs/cli.md for the rest.`;

const HELPS: Readonly<Record<string, string>> = { import: IMPORT_HELP, orders: ORDERS_HELP, labels: LABELS_HELP, history: HISTORY_HELP, mcp: MCP_HELP };
const COMMANDS = ['orders', 'labels', 'history', 'sandbox', 'mcp'] as const;
const ORDER_ACTIONS = ['import', 'get', 'track', 'cancel', 'wait'] as const;

/** Runs the command of `argv`; resolves with its exit code, or with `'serving'` for the sandbox server, which runs until stopped. */
export async function run(argv: readonly string[], io: Io, interrupt: Interrupt): Promise<ExitCode | 'serving'> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      io.stderr.write(`${HELP}\n`);
      return EXIT.usage;
    case 'help':
    case '--help':
    case '-h':
      say(io, rest[0] !== undefined && HELPS[rest[0]] !== undefined ? HELPS[rest[0]] : HELP);
      return EXIT.ok;
    case '--version':
    case '-v':
      say(io, (createRequire(import.meta.url)('../../package.json') as { version: string }).version);
      return EXIT.ok;
    case 'orders': {
      const [action, ...args] = rest;
      if (action === 'import') return importCommand(args, io, interrupt);
      if (action === 'get' || action === 'track' || action === 'cancel' || action === 'wait') return ordersCommand(action, args, io, interrupt);
      if (action === undefined || action === '--help' || action === '-h') return (say(io, ORDERS_HELP), action === undefined ? EXIT.usage : EXIT.ok);
      throw new UsageError(`orders: unknown action '${action}'${didYouMean(action, ORDER_ACTIONS)}: ${ORDER_ACTIONS.join(', ')}`, 'delivery-sdk orders');
    }
    case 'labels':
      return labelsCommand(rest, io, interrupt);
    case 'history':
      return historyCommand(rest, io, interrupt);
    case 'sandbox': {
      // The sandbox, loaded by the command that serves it, not by every other one (see config.ts).
      const { serveSandbox } = await import('./sandbox-server.js');
      await serveSandbox(rest, { command: 'delivery-sdk sandbox', readyMerchant: true });
      return rest.includes('--help') || rest.includes('-h') ? EXIT.ok : 'serving';
    }
    case 'mcp':
      return mcpCommand(rest, io);
    default:
      throw new UsageError(`unknown command '${command}'${didYouMean(command, COMMANDS)}: ${COMMANDS.join(', ')}`, 'delivery-sdk');
  }
}

/** Waits until what was written to `stream` is flushed (a pipe may still hold it), then exits. */
function exitAfterFlush(code: number): void {
  let pending = 2;
  const done = (): void => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // A reader of stdout that went away (`| head -1`) leaves what is left to say nowhere to go: not a crash
  // of the command, which finishes its work (an import stops reading, results.ts's jsonLines).
  process.stdout.on('error', () => undefined);
  const io: Io = { stdout: process.stdout, stderr: process.stderr, json: argv.includes('--json') };
  const interrupt = new Interrupt();
  // The sandbox server and the MCP server stop on their own signals.
  if (argv[0] !== 'sandbox' && argv[0] !== 'mcp') interrupt.install();
  let code: ExitCode | 'serving';
  try {
    code = await run(argv, io, interrupt);
  } catch (error) {
    code = reportFailure(io, error, argv[0] === 'orders' && argv[1] !== undefined ? `delivery-sdk orders ${argv[1]}` : `delivery-sdk ${argv[0] ?? ''}`.trim());
  }
  if (code === 'serving') return;
  interrupt.dispose();
  // A stop during a read or a wait ends the command with an abort: 130 or 143, whatever its error said.
  exitAfterFlush(interrupt.exitCode ?? code);
}

void main();
