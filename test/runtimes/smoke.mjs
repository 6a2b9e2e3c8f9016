// The smoke suite of the built package, as a user's code runs it: copied into a project where the
// packed tarball is installed, and run there by each runtime (Node 20/22/24, Deno, Bun). Plain
// JavaScript with no test framework, so that every runtime can run it as it is.
//
// It creates every order type against the sandbox's HTTP server on 127.0.0.1, receives and parses
// the webhooks that follow, and catches a coded error on both sides (client check, server answer).
// Prints one line per check and, last, a JSON summary line the runner reads.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import * as sdk from 'delivery-sdk';
import { createSandbox } from 'delivery-sdk/testing';
import * as webhooks from 'delivery-sdk/webhooks';
import { createNodeWebhookHandler } from 'delivery-sdk/webhooks/node';

const { DeliveryClient, DeliveryType, DeliveryState, ErrorCode, FulfillmentType, CodLimitExceededError, isDeliveryError } = sdk;
const ENTRIES = [
  'delivery-sdk',
  'delivery-sdk/functions',
  'delivery-sdk/webhooks',
  'delivery-sdk/webhooks/node',
  'delivery-sdk/webhooks/redis',
  'delivery-sdk/testing',
];

const results = [];
async function check(name, run) {
  const started = performance.now();
  try {
    await run();
    results.push({ name, ok: true });
    console.log(`ok - ${name} (${Math.round(performance.now() - started)} ms)`);
  } catch (error) {
    results.push({ name, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    console.log(`not ok - ${name}\n  ${String(error instanceof Error ? (error.stack ?? error.message) : error).replace(/\n/g, '\n  ')}`);
  }
}

const dropOffAddress = { city: 'Giza', districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street, 3rd floor' };
const pickupAddress = { city: 'Cairo', districtId: 'district-eg-cairo-makram-ebeid', firstLine: '5 Makram Ebeid Street' };
const receiver = { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' };
const items = [
  { sku: 'SHIRT-M', quantity: 2, name: 'Cotton shirt' },
  { sku: 'CAP', quantity: 1, name: 'Cap' },
];

/** A webhook endpoint on 127.0.0.1 built from `delivery-sdk/webhooks/node`; collects the parsed events. */
async function startWebhookReceiver() {
  const events = [];
  const handler = createNodeWebhookHandler({ auth: { name: 'X-Webhook-Key', value: 'smoke-secret' }, onEvent: (event) => void events.push(event) });
  const server = createServer(handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/delivery-webhooks`,
    events,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const sandbox = createSandbox({ apiKey: 'smoke-key' });
let server;
let receiver_;
let client;
const created = {};

await check('every entry loads with require() as well, with the same exports as import', async () => {
  const require = createRequire(import.meta.url);
  for (const specifier of ENTRIES) {
    const esm = await import(specifier);
    const cjs = require(specifier);
    assert.deepEqual(Object.keys(cjs).sort(), Object.keys(esm).sort(), specifier);
  }
  const cjsMain = require('delivery-sdk');
  assert.equal(cjsMain.DeliveryType.Deliver, 10);
  assert.ok(
    require('delivery-sdk/webhooks').parseWebhookEvent(
      JSON.stringify({ _id: 'o1', trackingNumber: 1, state: 45, type: 'SEND', timeStamp: Date.now(), cod: 5 }),
    ) instanceof Object,
  );
});

/** The build `import` gives this runtime: `node` (dist/node/, package.json's `node` condition) or `esm` (dist/). */
let build = 'unresolved';
await check('every entry resolves, under import, to one build, whose entries share their classes', async () => {
  // `await`: Bun's `import.meta.resolve` has answered with a promise in some versions.
  const files = await Promise.all(ENTRIES.map(async (specifier) => String(await import.meta.resolve(specifier))));
  const builds = new Set(files.map((file) => (/\/dist\/node\//.test(file) ? 'node' : 'esm')));
  assert.equal(builds.size, 1, files.join(', '));
  build = [...builds][0];
  assert.equal(sdk.DeliveryError, webhooks.DeliveryError);
  assert.ok(new webhooks.WebhookPayloadError('x') instanceof sdk.DeliveryError);
});

await check('the CommonJS build carries ky (ESM-only) inside it: no .cjs file requires it', async () => {
  const require = createRequire(import.meta.url);
  const { readdirSync, readFileSync } = await import('node:fs');
  const { dirname, join } = await import('node:path');
  const dist = dirname(require.resolve('delivery-sdk'));
  const cjsFiles = readdirSync(dist, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.cjs'));
  assert.ok(cjsFiles.length > 0);
  for (const file of cjsFiles) assert.doesNotMatch(readFileSync(join(dist, file), 'utf8'), /require\(["']ky["']\)/, file);
});

await check('the sandbox listens on 127.0.0.1 and answers the public lookup through the client', async () => {
  server = await sandbox.listen({ port: 0 });
  assert.match(server.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v2$/);
  client = new DeliveryClient({ baseUrl: server.baseUrl, apiKey: sandbox.apiKey, timeout: 10_000 });
  const cities = await client.request({ method: 'GET', path: '/cities', query: { countryId: '60e4482c7cb7d4bc4849c4d5' } });
  assert.ok(JSON.stringify(cities).includes('Cairo'));
});

await check('the client sends delivery-sdk/<version> (<runtime> <version>; <platform>) as its User-Agent', async () => {
  const { version } = createRequire(import.meta.url)('delivery-sdk/package.json');
  const expected = globalThis.Deno
    ? `Deno ${globalThis.Deno.version.deno}; ${process.platform}`
    : process.versions.bun
      ? `Bun ${process.versions.bun}; ${process.platform}`
      : `Node.js ${process.versions.node}; ${process.platform}`;
  const agents = [];
  const recorder = createServer((request, response) => {
    agents.push(request.headers['user-agent']);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":[]}');
  });
  await new Promise((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  try {
    const recorded = new DeliveryClient({ baseUrl: `http://127.0.0.1:${recorder.address().port}/v2`, apiKey: 'smoke-key' });
    await recorded.lookup.cities({ countryId: sdk.CountryId.Egypt });
  } finally {
    await new Promise((resolve) => recorder.close(resolve));
  }
  assert.deepEqual(agents, [`delivery-sdk/${version} (${expected})`]);
});

await check('a business with a pickup location is set up through client.businesses', async () => {
  const business = await client.businesses.create({
    name: 'Nile Shop',
    salesChannel: 'FACEBOOK_SELLER',
    website: 'https://nile.example',
    industry: 'Fashion',
    interestedInServices: ['SEND'],
  });
  assert.equal(typeof business._id, 'string');
  await client.businesses.updatePickupLocations(business._id, [{ locationName: 'Warehouse', ...pickupAddress }]);
});

const numericOrders = {
  Deliver: { type: DeliveryType.Deliver, dropOffAddress, receiver, cod: 250, businessReference: 'smoke-deliver' },
  CashCollection: { type: DeliveryType.CashCollection, pickupAddress, receiver, cod: 500 },
  CustomerReturnPickup: { type: DeliveryType.CustomerReturnPickup, pickupAddress, receiver, cod: -100 },
  Exchange: { type: DeliveryType.Exchange, dropOffAddress, receiver, cod: 100 },
};
for (const [name, order] of Object.entries(numericOrders)) {
  await check(`creates the ${name} order (type ${order.type}) over HTTP`, async () => {
    const order_ = await client.deliveries.create(order);
    assert.match(String(order_.trackingNumber), /^\d+$/);
    created[name] = order_;
  });
}

await check(`creates a fulfillment order (${FulfillmentType.Send}) and a return of part of it (${FulfillmentType.CustomerReturnPickup})`, async () => {
  const sent = await client.fulfillment.create({ type: FulfillmentType.Send, dropOffAddress, receiver, fulfillmentInfo: { items } });
  assert.match(String(sent.trackingNumber), /^\d+$/);
  const returned = await client.fulfillment.createReturn(
    {
      type: FulfillmentType.CustomerReturnPickup,
      pickupAddress,
      receiver,
      fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 1 }] },
      originalFulfillmentTrackingNumber: String(sent.trackingNumber),
    },
    { original: { fulfillmentInfo: { items } } },
  );
  assert.match(String(returned.trackingNumber), /^\d+$/);
  created.FulfillmentSend = sent;
  created.FulfillmentReturn = returned;
});

await check('the sandbox holds exactly the six orders, one of each type', () => {
  assert.deepEqual(
    sandbox
      .orders()
      .map((order) => order.type)
      .sort(),
    [10, 15, 25, 30, 'CUSTOMER_RETURN_PICKUP', 'FXF_SEND'].sort(),
  );
});

await check('receives and parses the webhooks of a delivered order with delivery-sdk/webhooks/node', async () => {
  receiver_ = await startWebhookReceiver();
  sandbox.setWebhook({ url: receiver_.url, headerName: 'X-Webhook-Key', headerValue: 'smoke-secret' });
  const trackingNumber = String(created.Deliver.trackingNumber);
  await sandbox.play(trackingNumber, 'success');
  await sandbox.drainWebhooks();
  const states = receiver_.events.filter((event) => event.trackingNumber === trackingNumber).map((event) => event.state);
  assert.equal(states.at(-1), DeliveryState.Delivered);
  const delivered = receiver_.events.find((event) => event.state === DeliveryState.Delivered);
  assert.equal(delivered.cod, 250);
  assert.equal(delivered.businessReference, 'smoke-deliver');
});

await check('parseWebhookEvent reads a webhook body of the spec and rejects a broken one with WebhookPayloadError', () => {
  const event = webhooks.parseWebhookEvent(
    JSON.stringify({ _id: '6650f0c2a1b2c3d4e5f60718', trackingNumber: 7234258, state: 47, type: 'SEND', timeStamp: 1735689600000, exceptionCode: 1 }),
  );
  assert.equal(event.trackingNumber, '7234258');
  assert.equal(event.state, DeliveryState.Exception);
  assert.equal(typeof event.exceptionReason, 'string');
  assert.throws(
    () => webhooks.parseWebhookEvent('{"state": "x"}'),
    (error) => error instanceof webhooks.WebhookPayloadError && error instanceof sdk.DeliveryError,
  );
});

await check('a cod above 30000 is caught as CodLimitExceededError before sending, and as the same class from the server', async () => {
  const tooMuch = { ...numericOrders.Deliver, cod: 50_000 };
  const ordersBefore = sandbox.orders().length;
  const local = await client.deliveries.create(tooMuch).then(
    () => undefined,
    (error) => error,
  );
  assert.ok(local instanceof CodLimitExceededError, `got ${local}`);
  assert.ok(isDeliveryError(local, ErrorCode.CodLimitExceeded));
  assert.equal(local.source, 'client');

  const unchecked = new DeliveryClient({ baseUrl: server.baseUrl, apiKey: sandbox.apiKey, validate: false });
  const remote = await unchecked.deliveries.create(tooMuch).then(
    () => undefined,
    (error) => error,
  );
  assert.ok(remote instanceof CodLimitExceededError, `got ${remote}`);
  assert.equal(remote.source, 'server');
  assert.equal(remote.errorCode, 3007);
  assert.equal(sandbox.orders().length, ordersBefore);
});

await check('a wrong API key is an AuthenticationError (401) that never carries the key', async () => {
  const stranger = new DeliveryClient({ baseUrl: server.baseUrl, apiKey: 'not-the-key-0123456789', maxRetries: 0 });
  const error = await stranger.request({ method: 'POST', path: '/deliveries', query: { apiVersion: 1 }, body: numericOrders.Deliver }).then(
    () => undefined,
    (e) => e,
  );
  assert.ok(error instanceof sdk.AuthenticationError, `got ${error}`);
  assert.equal(error.status, 401);
  assert.ok(!JSON.stringify({ ...error, message: error.message, stack: error.stack }).includes('not-the-key-0123456789'));
});

await check('delivery-sdk/mcp serves the operations as tools of an MCP server (the MCP SDK, its optional peer, beside it)', async () => {
  const { createMcpServer } = await import('delivery-sdk/mcp');
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ client }).connect(serverSide);
  const assistant = new Client({ name: 'smoke', version: '1.0.0' });
  await assistant.connect(clientSide);
  const { tools } = await assistant.listTools();
  assert.ok(tools.some((tool) => tool.name === 'deliveries_track'));
  assert.ok(!tools.some((tool) => tool.name === 'deliveries_create'), 'read-only by default');
  const tracked = await assistant.callTool({ name: 'deliveries_track', arguments: { trackingNumber: String(created.Deliver.trackingNumber) } });
  assert.equal(tracked.isError, undefined);
  assert.equal(tracked.structuredContent.trackingNumber, String(created.Deliver.trackingNumber));
  await assistant.close();
});

await receiver_?.close();
await server?.close();
await sandbox.close();

const failed = results.filter((result) => !result.ok).length;
const runtime = globalThis.Deno ? `deno ${globalThis.Deno.version.deno}` : globalThis.Bun ? `bun ${globalThis.Bun.version}` : `node ${process.versions.node}`;
console.log(
  JSON.stringify({
    smoke: { runtime, build, passed: results.length - failed, failed, failures: results.filter((result) => !result.ok).map((result) => result.name) },
  }),
);
process.exitCode = failed === 0 ? 0 : 1;
