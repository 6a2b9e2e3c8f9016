// Running an example as a script (Node): against DELIVERY_BASE_URL and DELIVERY_API_KEY when set,
// otherwise against a sandbox it serves itself on 127.0.0.1 with a merchant ready to order.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createSandbox, type Sandbox } from 'delivery-sdk/testing';
import { clientFor, type ExampleOptions, setUpMerchant } from './merchant.js';

/** A sandbox served on 127.0.0.1 whose account has a business and its default pickup location. */
export interface LocalSandbox {
  readonly sandbox: Sandbox;
  readonly baseUrl: string;
  readonly apiKey: string;
  close(): Promise<void>;
}

export async function startLocalSandbox(): Promise<LocalSandbox> {
  const sandbox = createSandbox();
  const { baseUrl } = await sandbox.listen({ port: 0 });
  await setUpMerchant(clientFor({ baseUrl, apiKey: sandbox.apiKey }));
  return { sandbox, baseUrl, apiKey: sandbox.apiKey, close: () => sandbox.close() };
}

/** Whether the module at `moduleUrl` is the script node (or tsx) was started with. */
export function isEntryPoint(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return pathToFileURL(realpathSync(script)).href === moduleUrl;
  } catch {
    return false; // a runner's argv[1] that is no file (a REPL, an eval)
  }
}

/** What a script's main gets: the API to use, and the local sandbox when it started one. */
export type ScriptTarget = ExampleOptions & { readonly sandbox?: Sandbox | undefined };

/**
 * Runs `main` as a script and exits with the code it returns. Set DELIVERY_BASE_URL (and
 * DELIVERY_API_KEY) to run it against the service or a `npx delivery-sdk-sandbox` server.
 */
export async function runScript(main: (target: ScriptTarget) => Promise<number>): Promise<void> {
  const baseUrl = process.env['DELIVERY_BASE_URL'];
  let code: number;
  if (baseUrl !== undefined && baseUrl !== '') {
    code = await main({ baseUrl, apiKey: process.env['DELIVERY_API_KEY'] });
  } else {
    const local = await startLocalSandbox();
    try {
      code = await main({ baseUrl: local.baseUrl, apiKey: local.apiKey, sandbox: local.sandbox });
    } finally {
      await local.close();
    }
  }
  process.exitCode = code;
}
