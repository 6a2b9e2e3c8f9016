import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach } from 'vitest';
import { clientFor, type ExampleOptions, setUpMerchant } from '../../examples/support/merchant.js';
import { DeliveryClient, type DeliveryClientOptions, DeliveryType, type OrderInput } from '../../src/index.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/testing/index.js';

/** Real seeded ids, as a test would copy them from the lookup lists. */
export const CAIRO = 'city-eg-cairo';
export const DOKKI = 'district-eg-giza-dokki';
export const MAKRAM_EBEID = 'district-eg-cairo-makram-ebeid';
export const MADINATY_NO_PICKUP = 'district-eg-cairo-madinaty';
export const AL_AYYAT_NO_DROPOFF = 'district-eg-giza-al-ayyat';

export const dropOff = { city: 'Giza', districtId: DOKKI, firstLine: '12 Tahrir Street, 3rd floor' };
export const pickup = { city: 'Cairo', districtId: MAKRAM_EBEID, firstLine: '5 Makram Ebeid Street' };

/** The `i`-th of a batch of valid Deliver orders for the sandbox, told apart by `businessReference` (`ROW-i`). */
export const numberedOrder = (i: number): OrderInput => ({
  type: DeliveryType.Deliver,
  dropOffAddress: dropOff,
  receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
  cod: 100,
  businessReference: `ROW-${i}`,
});

export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** Calls the sandbox's fetch function the way a client would. */
export async function call(sandbox: Sandbox, method: string, path: string, body?: unknown, apiKey: string | null = sandbox.apiKey): Promise<JsonAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey !== null) headers['authorization'] = apiKey;
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await sandbox.fetch(new Request(`${sandbox.baseUrl}${path}`, init));
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** A business with one pickup location, so orders can be created. */
export async function setUpAccount(
  sandbox: Sandbox,
  input: Record<string, unknown> = {
    name: 'Nile Shop',
    salesChannel: 'FACEBOOK_SELLER',
    website: 'https://nile.example',
    industry: 'Fashion',
    interestedInServices: ['SEND'],
  },
): Promise<{ businessId: string; locationId: string }> {
  const business = await call(sandbox, 'POST', '/businesses', input);
  const businessId: string = business.body.data._id;
  const updated = await call(sandbox, 'PUT', `/businesses/${businessId}`, {
    pickupAddress: [{ locationName: 'Warehouse', districtId: MAKRAM_EBEID, firstLine: '5 Makram Ebeid Street' }],
  });
  return { businessId, locationId: updated.body.data.pickupLocations[0]._id };
}

/**
 * A fresh sandbox with an account that can take orders ({@link setUpAccount}), and a client on
 * its fetch that does not retry; `clientOptions` change or add to the client's options.
 */
export async function sandboxWithAccount(
  options: SandboxOptions = {},
  clientOptions: Partial<DeliveryClientOptions> = {},
): Promise<{ sandbox: Sandbox; client: DeliveryClient; businessId: string; locationId: string }> {
  const sandbox = createSandbox(options);
  const account = await setUpAccount(sandbox);
  const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch, maxRetries: 0, ...clientOptions });
  return { sandbox, client, ...account };
}

export async function createOrder(sandbox: Sandbox, order: Record<string, unknown>): Promise<JsonAnswer> {
  return call(sandbox, 'POST', '/deliveries?apiVersion=1', order);
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: any;
}

/**
 * A webhook endpoint on 127.0.0.1 that records what it receives. `failFirst` answers 500 to that
 * many requests before accepting.
 */
export async function startReceiver(
  options: { failFirst?: number } = {},
): Promise<{ url: string; received: ReceivedWebhook[]; hits: () => number; close: () => Promise<void> }> {
  const received: ReceivedWebhook[] = [];
  let hits = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hits += 1;
      if (hits <= (options.failFirst ?? 0)) {
        res.writeHead(500).end();
        return;
      }
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** For the examples' tests: before each test a fresh sandbox with the examples' merchant set up, closed after it. */
export function useExampleMerchant(): { sandbox: Sandbox; target: ExampleOptions } {
  const merchant = {} as { sandbox: Sandbox; target: ExampleOptions };
  beforeEach(async () => {
    merchant.sandbox = createSandbox();
    merchant.target = { baseUrl: merchant.sandbox.baseUrl, apiKey: merchant.sandbox.apiKey, fetch: merchant.sandbox.fetch };
    await setUpMerchant(clientFor(merchant.target));
  });
  afterEach(() => merchant.sandbox.close());
  return merchant;
}
