// The sandbox server over HTTP: `delivery-sdk sandbox` (with a ready merchant) and `delivery-sdk-sandbox` (empty, as ever).
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox } from '../testing/index.js';
import { parseOrUsage } from './args.js';
import { UsageError } from './exit.js';
import { watchParent } from './parent-watch.js';
import { readyMerchant } from './ready-merchant.js';

const help = (command: string, merchant: boolean): string => `${command}: the Delivery Service API sandbox over HTTP, on this machine only.

Usage: ${command} [--port 4010] [--host 127.0.0.1] [--seed N] [--api-key-file FILE]
       [--cors ORIGIN]... [--allow-host NAME]... [--webhook-host NAME]...
       [--webhook-url URL [--webhook-header-name NAME --webhook-header-value-file FILE]]
       [--control-token-file FILE]${merchant ? ' [--empty]' : ''}

Prints the base URL (ending in /v2), the dashboard's URL (open it in a browser on this machine:
it signs that browser in) and the control token once ready; Ctrl-C stops it.${
  merchant
    ? `
It holds a ready merchant (a business with a pickup location), so orders can be created at once;
--empty starts it without one, as delivery-sdk-sandbox does.`
    : ''
}
Secrets are read from the environment or a file, never from the command line, which every user of
the machine can read (ps, /proc/<pid>/cmdline): the API key from DELIVERY_SANDBOX_API_KEY or
--api-key-file, the webhook's header value from DELIVERY_SANDBOX_WEBHOOK_HEADER_VALUE or
--webhook-header-value-file. (--api-key and --webhook-header-value still work, with a warning.)

A --host other than a loopback one opens the API and its key to the network, and prints a warning.
The API answers web pages from this machine, and --cors origins (https://app.example:3000); a Host
that is loopback, an IP address, or an --allow-host name. Webhooks go to loopback receivers and
--webhook-host names.

Control endpoints for tests answer this machine only (loopback peer and Host; no CORS), and only
to a request with the header X-Sandbox-Token: <control token>. The token is new at each start; it
is printed once and written to --control-token-file (default: a file in a new directory of the
temporary directory that only you can enter, named in the output), which only the user who
started the sandbox can read:
<origin>/__sandbox/otp?phone=, /__sandbox/orders,
POST /__sandbox/orders/<trackingNumber>/advance {"to": 20}, POST .../play {"scenario": "success"},
PUT /__sandbox/webhook, GET /__sandbox/webhooks, POST|DELETE /__sandbox/faults,
POST /__sandbox/merchants (another merchant, ready to take orders: its API key and ids).`;

/** Which command serves, and whether its sandbox holds a ready merchant unless `--empty` says not. */
export interface ServeOptions {
  readonly command: string;
  readonly readyMerchant: boolean;
}

/** `Number('')` is 0 and `Number('abc')` NaN: a typo must not quietly pick a port or an unseeded run. */
function wholeNumber(flag: string, text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag}: expected a whole number, received '${text}'`);
  return Number(text);
}

/**
 * A secret from, in order: its file flag, its environment variable, or its command-line flag (with
 * a warning: the command line is visible to every user of the machine).
 */
function secret(values: Record<string, unknown>, name: string, variable: string, command: string): string | undefined {
  const file = values[`${name}-file`];
  if (typeof file === 'string') return readFileSync(file, 'utf8').trim();
  const fromEnvironment = process.env[variable];
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  const given = values[name];
  if (typeof given !== 'string') return undefined;
  console.warn(`${command}: --${name} is visible to every user of this machine (ps); prefer ${variable} or --${name}-file`);
  return given;
}

/**
 * Opens the file the control token goes in, before the server listens, so that a path that cannot
 * be written is a usage error (exit 2) before anything is served, never a crash of a running
 * sandbox. By default the file is made in a new directory of its own (mkdtemp: a name no one can
 * guess, mode 0700), so no other user can plant a file or a link at its path to stop the sandbox,
 * nor read the token; the file is made exclusively (`wx`, mode 0600). A --control-token-file given
 * is replaced (a file already there, even another user's link, is removed, never followed) and made
 * the same way; one that cannot be (a directory there, another user's file in a shared folder) is
 * refused, naming why.
 */
function openTokenFile(given: string | undefined): { file: string; fd: number; remove: () => void } {
  const directory = given === undefined ? mkdtempSync(join(tmpdir(), 'delivery-sdk-sandbox-')) : undefined;
  const file = directory === undefined ? (given as string) : join(directory, 'control.token');
  try {
    if (directory === undefined) rmSync(file, { force: true });
    const fd = openSync(file, 'wx', 0o600);
    // Best effort at the end: what is at the path by then (another user's file) must not keep the sandbox from stopping.
    const remove = (): void => {
      try {
        rmSync(directory ?? file, { force: true, recursive: directory !== undefined });
      } catch {}
    };
    return { file, fd, remove };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new UsageError(
      `--control-token-file: cannot write the token to ${file} (${code}): name a file in a folder only you can write, or leave the option out for a private one`,
    );
  }
}

/** Starts the server and resolves once it listens; Ctrl-C, SIGTERM, or the process that started it going away stops it and ends the process. */
export async function serveSandbox(args: readonly string[], { command, readyMerchant: withMerchant }: ServeOptions): Promise<void> {
  const { values } = parseOrUsage({
    args: [...args],
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      'api-key': { type: 'string' },
      'api-key-file': { type: 'string' },
      seed: { type: 'string' },
      cors: { type: 'string', multiple: true },
      'allow-host': { type: 'string', multiple: true },
      'webhook-host': { type: 'string', multiple: true },
      'webhook-url': { type: 'string' },
      'webhook-header-name': { type: 'string' },
      'webhook-header-value': { type: 'string' },
      'webhook-header-value-file': { type: 'string' },
      'control-token-file': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      empty: { type: 'boolean' },
    },
  });
  if (!withMerchant && values.empty !== undefined) throw new UsageError(`${command}: unknown option '--empty' (its sandbox is empty anyway)`);
  if (values.help === true) {
    console.log(help(command, withMerchant));
    return;
  }
  const port = wholeNumber('--port', values.port);
  if (port > 65535) throw new UsageError(`--port: expected a port number (0-65535), received '${values.port}'`);
  const apiKey = secret(values, 'api-key', 'DELIVERY_SANDBOX_API_KEY', command);
  const headerValue = secret(values, 'webhook-header-value', 'DELIVERY_SANDBOX_WEBHOOK_HEADER_VALUE', command);
  const sandbox = createSandbox({
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(values.seed === undefined ? {} : { seed: wholeNumber('--seed', values.seed) }),
    ...(values['webhook-host'] === undefined ? {} : { webhookHosts: values['webhook-host'] }),
  });
  if (withMerchant && values.empty !== true) await readyMerchant(sandbox);
  if (values['webhook-url'] !== undefined) {
    sandbox.setWebhook({
      url: values['webhook-url'],
      ...(values['webhook-header-name'] === undefined ? {} : { headerName: values['webhook-header-name'] }),
      ...(headerValue === undefined ? {} : { headerValue }),
    });
  }
  const token = openTokenFile(values['control-token-file']);
  const server = await sandbox
    .listen({
      port,
      host: values.host,
      ...(values.cors === undefined ? {} : { cors: values.cors }),
      ...(values['allow-host'] === undefined ? {} : { allowedHosts: values['allow-host'] }),
    })
    .catch((error: unknown) => {
      closeSync(token.fd);
      token.remove();
      throw error;
    });
  writeSync(token.fd, `${server.controlToken}\n`);
  closeSync(token.fd);
  console.log(`Delivery sandbox listening on ${server.baseUrl} (API key: ${sandbox.apiKey})`);
  if (withMerchant && values.empty !== true) console.log('It holds a ready merchant: a business with a pickup location, so orders can be created at once.');
  console.log(`Dashboard (open it in a browser on this machine; the link signs it in): ${server.dashboardUrl}`);
  console.log(`Control token (header X-Sandbox-Token): ${server.controlToken}, also in ${token.file} (readable by you only)`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    token.remove();
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Started in the background by a script (`npx delivery-sdk sandbox &`), it stops with the script: a rerun finds its port free.
  watchParent(stop);
}
