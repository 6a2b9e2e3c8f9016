// A shop's backend on node:http, Express-style (one `(req, res)` handler per route; each would be an
// `app.post(...)` in Express): `POST /orders` turns the shop's order into a delivery, and
// `POST /webhooks/delivery` receives the service's state changes through createNodeWebhookHandler,
// checking their header and keeping each order's latest state however the webhooks arrive.
//
//   npx tsx examples/merchant-backend.ts          # serves on PORT (default 3000) against its own sandbox
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ApiError,
  CodedDeliveryError,
  ConnectionError,
  type DeliveryClient,
  DeliveryType,
  describeState,
  isDeliveryError,
  ValidationError,
} from 'delivery-sdk';
import { createOrderTracker } from 'delivery-sdk/webhooks';
import { createNodeWebhookHandler } from 'delivery-sdk/webhooks/node';
import { clientFor, type ExampleOptions, printer } from './support/merchant.js';
import { isEntryPoint, runScript } from './support/node.js';

export interface MerchantBackendOptions extends ExampleOptions {
  /** Default 0: any free port. */
  readonly port?: number | undefined;
  /** The URL the delivery service reaches this backend at (behind a proxy, say). Default: where it listens. */
  readonly publicUrl?: string | undefined;
  /** The header value the service must send with each webhook. Default: a random one per start. */
  readonly webhookKey?: string | undefined;
}

/** What the shop knows of an order (a table in a real shop's database). */
export interface ShopOrder {
  readonly reference: string;
  readonly trackingNumber: string;
  state: number;
  stateName: string;
  /** `timeStamp` of the webhook that set `state`: an older one arriving late never overwrites it. */
  updatedAt: number | undefined;
  /** Cash the courier collected (state 45). */
  collected?: number;
}

export interface MerchantBackend {
  /** Where it listens, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  readonly orders: ReadonlyMap<string, ShopOrder>;
  close(): Promise<void>;
}

/** What `POST /orders` takes: the shop's own shape, with place names rather than ids. */
interface OrderRequest {
  reference: string;
  customer: { firstName: string; lastName: string; phone: string };
  address: { city: string; district: string; zone?: string; firstLine: string };
  cod?: number;
}

const WEBHOOK_HEADER = 'X-Webhook-Key';

export async function startMerchantBackend(options: MerchantBackendOptions): Promise<MerchantBackend> {
  const say = printer(options);
  const client = clientFor(options);
  const webhookKey = options.webhookKey ?? randomBytes(16).toString('hex');
  const orders = new Map<string, ShopOrder>();
  const byTrackingNumber = new Map<string, ShopOrder>();
  const tracker = createOrderTracker();
  let webhookUrl = '';

  // 401 without the key, 400 on a malformed body, 500 when onEvent throws (the service retries).
  const receiveWebhook = createNodeWebhookHandler({
    auth: { name: WEBHOOK_HEADER, value: webhookKey },
    onEvent: (event) => {
      const { changed, current } = tracker.track(event);
      const order = byTrackingNumber.get(current.trackingNumber);
      if (!changed || order === undefined) return;
      order.state = current.state;
      order.stateName = describeState(current.state, current.type).name;
      order.updatedAt = current.timeStamp;
      if (current.state === 45) order.collected = current.cod;
      say(`webhook: ${order.reference} #${order.trackingNumber} → ${order.state} ${order.stateName}`);
    },
  });

  const routes: Record<string, (req: IncomingMessage, res: ServerResponse, params: string[]) => void | Promise<void>> = {
    'POST /orders': async (req, res) => {
      const input = await readJson(req);
      if (!isOrderRequest(input))
        return send(res, 400, { error: 'expected { reference, customer: { firstName, lastName, phone }, address: { city, district, firstLine }, cod? }' });
      if (orders.has(input.reference)) return send(res, 409, { error: `order ${input.reference} was already sent` });
      try {
        const order = await createDelivery(client, input, { webhookUrl, webhookKey });
        orders.set(order.reference, order);
        byTrackingNumber.set(order.trackingNumber, order);
        say(`order ${order.reference}: delivery #${order.trackingNumber} created`);
        send(res, 201, order);
      } catch (err) {
        const { status, body } = errorAnswer(err);
        say(`order ${input.reference}: refused, ${String(body.error)}${body.code === undefined ? '' : ` ${body.code}`} (${body.source})`);
        send(res, status, body);
      }
    },
    'GET /orders/:reference': (_req, res, [reference = '']) => {
      const order = orders.get(decodeURIComponent(reference));
      return order === undefined ? send(res, 404, { error: `no order ${reference}` }) : send(res, 200, order);
    },
    'POST /webhooks/delivery': (req, res) => receiveWebhook(req, res),
  };

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    for (const [route, handle] of Object.entries(routes)) {
      const [method, pattern = ''] = route.split(' ');
      const params = matchPath(pattern, path);
      if (method === req.method && params !== undefined) {
        Promise.resolve(handle(req, res, params)).catch((err: unknown) => send(res, 500, { error: err instanceof Error ? err.message : 'internal error' }));
        return;
      }
    }
    send(res, 404, { error: `no route ${req.method} ${path}` });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  webhookUrl = `${options.publicUrl ?? url}/webhooks/delivery`;
  return {
    url,
    orders,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The shop's order to a delivery: names resolved to ids (cached), webhooks back to this backend with their key. */
async function createDelivery(client: DeliveryClient, input: OrderRequest, hook: { webhookUrl: string; webhookKey: string }): Promise<ShopOrder> {
  const dropOffAddress = await client.lookup.resolveAddress({ ...input.address, for: 'dropOffAddress' });
  const created = await client.deliveries.create({
    type: DeliveryType.Deliver,
    dropOffAddress,
    receiver: input.customer,
    cod: input.cod,
    businessReference: input.reference,
    webhookUrl: hook.webhookUrl,
    webhookCustomHeaders: { [WEBHOOK_HEADER]: hook.webhookKey },
  });
  const state = created.state?.code ?? 10;
  return { reference: input.reference, trackingNumber: created.trackingNumber, state, stateName: describeState(state).name, updatedAt: undefined };
}

/**
 * Errors to answers: what the SDK refused before sending (bad input, an unknown place) is the
 * caller's to fix (422, with the fields); what the service refused or never answered is not (502, 503).
 */
export function errorAnswer(err: unknown): { status: number; body: { error: string; code?: number; source: string; message: string; fields?: string[] } } {
  if (!isDeliveryError(err)) throw err;
  // One class per errorCode whichever side found it; `source` tells the two apart.
  const source = err instanceof CodedDeliveryError ? err.source : err instanceof ValidationError ? err.source : err instanceof ApiError ? 'server' : 'network';
  const body = { error: err.name, ...(err.errorCode === undefined ? {} : { code: err.errorCode }), source, message: err.message };
  if (err instanceof CodedDeliveryError || err instanceof ValidationError) {
    if (source === 'client') return { status: 422, body: { ...body, fields: err.issues.map((issue) => issue.path.join('.')) } };
  }
  return { status: err instanceof ConnectionError ? 503 : 502, body };
}

function isOrderRequest(value: unknown): value is OrderRequest {
  const input = value as Partial<OrderRequest> | undefined;
  return (
    typeof input?.reference === 'string' &&
    typeof input.customer === 'object' &&
    typeof input.address === 'object' &&
    (input.cod === undefined || typeof input.cod === 'number')
  );
}

/** `/orders/:reference` against a path: the parameters, or `undefined` when it does not match. */
function matchPath(pattern: string, path: string): string[] | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: string[] = [];
  for (const [i, part] of want.entries()) {
    if (part.startsWith(':')) params.push(got[i] ?? '');
    else if (part !== got[i]) return undefined;
  }
  return params;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

if (isEntryPoint(import.meta.url)) {
  await runScript(async ({ sandbox, ...target }) => {
    const backend = await startMerchantBackend({ ...target, port: Number(process.env['PORT'] ?? 3000) });
    const order = {
      reference: 'ORDER-1001',
      customer: { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' },
      address: { city: 'Giza', district: 'Dokki', firstLine: '12 Tahrir Street' },
      cod: 250,
    };
    console.log(`Merchant backend on ${backend.url} (delivery API: ${target.baseUrl}). Try:`);
    console.log(`  curl -s -X POST ${backend.url}/orders -H 'content-type: application/json' -d '${JSON.stringify(order)}'`);
    if (sandbox !== undefined)
      console.log(
        `  curl -s -X POST ${target.baseUrl.replace(/\/v2$/, '')}/__sandbox/orders/<trackingNumber>/play -H 'X-Sandbox-Token: ${sandbox.controlToken}' -d '{"scenario":"success"}'`,
      );
    console.log(`  curl -s ${backend.url}/orders/ORDER-1001`);
    console.log('Ctrl-C to stop.');
    await new Promise((resolve) => process.once('SIGINT', resolve).once('SIGTERM', resolve));
    await backend.close();
    return 0;
  });
}
