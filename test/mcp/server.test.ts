// createMcpServer in process (the official SDK's Client over its in-memory transport): every read
// tool's answer, read leniently from what the service sends (nulls, numbers as strings), fits the
// output schema the Client holds it to; what a call that failed part-way did is in its error;
// progress; lists dropped after their time; and the server's own refusals.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError, type DeliveryClient, DeliveryType } from '../../src/index.js';
import { createMcpServer, type McpServerOptions, TOOLS } from '../../src/mcp/index.js';
import { createSandbox } from '../../src/testing/index.js';
import { allDistrictsByCity, cairoDistricts, cairoZones, cities } from '../fixtures/real/answers/lookup.js';
import { clientOnFetch, KEY } from '../support/fake-service.js';
import { dropOff } from '../support/sandbox.js';

afterEach(() => vi.useRealTimers());

async function connected(options: McpServerOptions): Promise<Client> {
  const server = createMcpServer(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'delivery-sdk-tests', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  // The Client holds each answer to its tool's output schema once it has the list.
  await client.listTools();
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

const errorOf = (result: CallToolResult): Record<string, unknown> => {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content[1] as { text: string }).text) as Record<string, unknown>;
};

/** An order as the service may send it: the fields the SDK requires, every other one null, a number as a string. */
const looseOrder = {
  _id: 'o-1',
  trackingNumber: 70000012,
  state: { code: '45', value: null },
  type: { code: 10, value: 'Send' },
  cod: '250',
  businessReference: null,
  receiver: { firstName: null, lastName: 'Adel', phone: null },
  dropOffAddress: { city: null, zone: { name: null, _id: null }, firstLine: null },
  pickupAddress: null,
  timeline: null,
  createdAt: null,
};
const PDF = btoa('%PDF-1.4\n%...\n');
const ok = (data: unknown): Response => Response.json({ success: true, message: 'Success', data });

/** What the service may answer on each route a read tool sends: the real shapes, loosely filled. */
function looseService(request: Request): Response {
  const { pathname } = new URL(request.url);
  const route = `${request.method} ${pathname.replace(/^\/v2/, '')}`;
  if (route === 'GET /cities') return Response.json(cities);
  if (route === 'GET /cities/getAllDistricts') return Response.json(allDistrictsByCity);
  if (/^GET \/cities\/[^/]+\/zones$/.test(route)) return Response.json(cairoZones);
  if (/^GET \/cities\/[^/]+\/districts$/.test(route)) return Response.json(cairoDistricts);
  if (route === 'POST /deliveries/search') return ok({ deliveries: [looseOrder], count: '1', page: null, limit: 50 });
  if (route === 'POST /deliveries/mass-awb') return ok(PDF);
  if (/^GET \/deliveries\/business\//.test(route)) return ok(looseOrder);
  if (/^GET \/deliveries\/[^/]+\/tracking$/.test(route))
    return ok({
      TrackingNumber: 70000012,
      CurrentStatus: { state: 'Delivered', code: 45, timestamp: null },
      TransitEvents: [{ state: null, code: '10' }],
      PromisedDate: null,
    });
  if (route === 'GET /pickups/available-dates') return ok([{ dayDate: '2026-03-14', dayName: null }]);
  if (route === 'GET /pickups') return ok({ pickups: [{ _id: 'pk-1', puid: 12, state: null, scheduledDate: null }], count: null });
  if (/^GET \/pickups\//.test(route)) return ok({ _id: 'pk-1', puid: '12', state: null, business: null });
  if (route === 'GET /pickup-locations') return ok([{ _id: 'loc-1', locationName: null, address: null, isDefault: null }]);
  if (/^GET \/pickup-locations\//.test(route)) return ok({ _id: 'loc-1', locationName: null, address: { city: null }, isDefault: 'true' });
  if (route === 'GET /pricing/shipment/calculator') return ok({ shippingFee: '50', vat: null, priceAfterVat: 57 });
  return Response.json({ success: false, message: `not answered: ${route}` }, { status: 404 });
}

/** The arguments of each read tool for {@link looseService}. */
const READ_CALLS: Record<string, Record<string, unknown>> = {
  lookup_all_districts: {},
  lookup_cities: { params: { countryId: 'eg' } },
  lookup_clear_cache: {},
  lookup_districts: { cityId: 'FceDyHXwpSYCCoCqn' },
  lookup_zones: { cityId: 'FceDyHXwpSYCCoCqn' },
  lookup_resolve_address: { input: { city: 'Cairo', district: 'Makram Ebeid', firstLine: '5 Makram Ebeid Street', for: 'dropOffAddress' } },
  // An order as another tool read it, every field of it: the SDK takes what it needs, so does the tool.
  deliveries_airway_bill_files: {
    orders: [{ ...looseOrder, trackingNumber: '70000012', state: { code: 24, value: 'Received at warehouse' }, type: { code: 10 } }],
  },
  deliveries_airway_bills: { trackingNumbers: ['70000012'] },
  deliveries_customer_history: { phone: '01012345678' },
  deliveries_find_by_reference: { businessReference: 'order-1' },
  deliveries_get: { trackingNumber: '70000012' },
  deliveries_list: {},
  deliveries_resolve_tracking_numbers: { outcome: { created: [], failed: [], createdIds: [] } },
  deliveries_search: { filter: { page: 1 } },
  deliveries_track: { trackingNumber: '70000012' },
  deliveries_wait_for_state: { trackingNumber: '70000012' },
  pickups_available_dates: {},
  pickups_get: { pickupId: 'pk-1' },
  pickups_list: {},
  pickup_locations_get: { locationId: 'loc-1' },
  pickup_locations_list: {},
  pricing_calculate: { query: { dropOffCity: 'Cairo', pickupCity: 'Giza' } },
};

describe('createMcpServer, in process', () => {
  it("answers every read tool from the service's loose answers within its output schema (the Client checks each)", async () => {
    const { client: sdk } = clientOnFetch(looseService);
    const client = await connected({ client: sdk });
    const reads = TOOLS.filter((tool) => tool.reads).map((tool) => tool.name);
    expect(Object.keys(READ_CALLS).sort()).toEqual([...reads].sort());
    for (const [name, args] of Object.entries(READ_CALLS)) {
      const result = await call(client, name, args);
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
    }
  });

  it('reports what a bulk upload created when some orders failed, and its progress', async () => {
    const sandbox = createSandbox({ apiKey: 'mcp-bulk-key' });
    const merchant = sandbox.createMerchant({ apiKey: 'mcp-bulk-merchant' });
    const { client: sdk } = clientOnFetch((request) => sandbox.fetch(request), { apiKey: merchant.apiKey, baseUrl: sandbox.baseUrl });
    const client = await connected({ client: sdk, allowWrites: true });
    const order = (reference: string) => ({
      type: DeliveryType.Deliver,
      dropOffAddress: dropOff,
      receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
      businessReference: reference,
      cod: 100,
    });
    const progress: Progress[] = [];
    const result = (await client.callTool(
      {
        name: 'deliveries_create_bulk',
        // The second order names a district the service does not know: the SDK sends it, the service refuses it.
        arguments: {
          orders: [order('mcp-bulk-1'), { ...order('mcp-bulk-2'), dropOffAddress: { ...dropOff, districtId: 'district-nowhere' } }],
          options: { chunkSize: 1 },
        },
      },
      undefined,
      { onprogress: (update) => void progress.push(update) },
    )) as CallToolResult;
    const error = errorOf(result);
    expect(error).toMatchObject({ error: 'BulkCreationError', errorCode: 1061 });
    const outcome = error['result'] as { created: Array<{ index: number }>; failed: Array<{ index: number; error: { error: string; errorCode: number } }> };
    expect(outcome.created.map((created) => created.index)).toEqual([0]);
    expect(outcome.failed).toEqual([expect.objectContaining({ index: 1, error: expect.objectContaining({ errorCode: 3003 }) })]);
    expect(merchant.orders().map((created) => created.businessReference)).toEqual(['mcp-bulk-1']);
    expect(progress.at(-1)).toMatchObject({ progress: 2, total: 2 });
    await sandbox.close();
  });

  it('reports what a streamed upload created before it stopped, with the error that stopped it', async () => {
    const { client: sdk } = clientOnFetch((_, index) =>
      index === 0
        ? ok({ createdDeliveriesIds: ['6571f0a1c2b3d4e5f6a7b8c1'], failedDeliveries: [] })
        : Response.json({ success: false, message: 'Invalid API key', errorCode: 1028 }, { status: 401 }),
    );
    const client = await connected({ client: sdk, allowWrites: true });
    const order = (reference: string) => ({
      type: DeliveryType.Deliver,
      dropOffAddress: dropOff,
      receiver: { phone: '01012345678' },
      businessReference: reference,
    });
    const error = errorOf(
      await call(client, 'deliveries_stream_bulk', { orders: [order('mcp-stream-1'), order('mcp-stream-2')], options: { chunkSize: 1, concurrency: 1 } }),
    );
    expect(error).toMatchObject({ error: 'PartialResultError', cause: { error: 'AuthenticationError', errorCode: 1028 } });
    const { items } = error['partial'] as { items: Array<{ createdIds: string[] }> };
    expect(items.flatMap((outcome) => outcome.createdIds)).toEqual(['6571f0a1c2b3d4e5f6a7b8c1']);
  });

  it('reports what a streamed upload created before something other than an SDK error stopped it', async () => {
    const { client: sdk } = clientOnFetch(looseService);
    const created = {
      start: 0,
      size: 1,
      created: [{ index: 0 }],
      failed: [],
      createdIds: ['6571f0a1c2b3d4e5f6a7b8c1'],
      progress: { done: 1, created: 1, failed: 0 },
    };
    const broken = Object.assign(Object.create(sdk) as DeliveryClient, {
      deliveries: {
        async *streamBulk() {
          yield created;
          throw new Error('the disk is gone');
        },
      },
    });
    const client = await connected({ client: broken, allowWrites: true });
    const order = { type: DeliveryType.Deliver, dropOffAddress: dropOff, receiver: { phone: '01012345678' }, businessReference: 'mcp-thrown-1' };
    const error = errorOf(await call(client, 'deliveries_stream_bulk', { orders: [order] }));
    // Nothing says what the stream did after its last outcome: look the orders up before sending them again.
    expect(error).toMatchObject({ error: 'PartialResultError', mayExist: true, cause: { message: expect.stringContaining('the disk is gone') } });
    expect((error['partial'] as { items: unknown[] }).items).toEqual([created]);
  });

  it('drops a list kept for its cursor after ten minutes, and says so', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { client: sdk } = clientOnFetch(() => ok(Array.from({ length: 60 }, (_, index) => ({ _id: `loc-${index}`, locationName: `Store ${index}` }))));
    const client = await connected({ client: sdk });
    const first = (await call(client, 'pickup_locations_list')).structuredContent as { items: unknown[]; nextCursor: string };
    expect(first.items).toHaveLength(50);
    vi.setSystemTime(Date.now() + 10 * 60_000 + 1);
    expect(errorOf(await call(client, 'pickup_locations_list', { cursor: first.nextCursor }))['issues']).toEqual([
      expect.objectContaining({ path: 'cursor', message: expect.stringMatching(/10 minutes/) }),
    ]);
  });

  it("answers a write's cursor it no longer keeps by telling not to call again, and sends nothing", async () => {
    const { client: sdk, sent } = clientOnFetch(looseService);
    const client = await connected({ client: sdk, allowWrites: true });
    const issues = errorOf(await call(client, 'deliveries_stream_bulk', { cursor: 'gone' }))['issues'];
    expect(issues).toEqual([expect.objectContaining({ path: 'cursor', message: expect.stringMatching(/do not call this tool again/) })]);
    expect(sent).toEqual([]);
  });

  it('says what a tool refuses in the arguments, field by field, before anything is sent', async () => {
    const { client: sdk, sent } = clientOnFetch(looseService);
    const client = await connected({ client: sdk });
    const size = errorOf(await call(client, 'deliveries_airway_bills', { trackingNumbers: ['70000012'], labelOptions: { size: 'A5' } }));
    expect(size['issues']).toEqual([expect.objectContaining({ path: 'labelOptions.size', message: "expected one of 'A4', 'A6', received 'A5'" })]);
    const missing = errorOf(await call(client, 'deliveries_track', {}));
    expect(missing['issues']).toEqual([{ path: 'trackingNumber', message: 'required' }]);
    // The call options every method takes are the server's to give (a key, headers, a signal): a tool takes what its operation adds.
    const options = errorOf(await call(client, 'deliveries_list', { options: { maxPages: 'ten', apiKey: 'another-merchant' } }));
    expect(options['issues']).toEqual([
      { path: 'options.maxPages', message: "expected a number, received 'ten'" },
      { path: 'options.apiKey', message: "is not a field of it, which has 'maxPages', 'totalTimeout'" },
    ]);
    expect(sent).toEqual([]);
  });

  it('says of a write that throws no error of the SDK that it may have happened all the same', async () => {
    const { client: sdk } = clientOnFetch(looseService);
    const broken = Object.assign(Object.create(sdk) as DeliveryClient, {
      deliveries: {
        create: () => {
          throw new TypeError('a bug after the request went');
        },
      },
    });
    const client = await connected({ client: broken, allowWrites: true });
    expect(errorOf(await call(client, 'deliveries_create', { order: { type: 10 } }))).toMatchObject({
      mayExist: true,
      message: expect.stringContaining('TypeError: a bug after the request went'),
    });
  });

  it('answers a call the client cannot make, and an operation that throws, as errors, and serves on', async () => {
    const { client: sdk } = clientOnFetch(looseService);
    const broken = Object.assign(Object.create(sdk) as DeliveryClient, {
      deliveries: {
        get: () => {
          throw new TypeError('a bug');
        },
      },
    });
    const client = await connected({ client: broken });
    expect(errorOf(await call(client, 'deliveries_get', { trackingNumber: '70000012' }))).toMatchObject({ error: 'TypeError', message: 'a bug' });
    expect(errorOf(await call(client, 'deliveries_track', { trackingNumber: '70000012' }))).toMatchObject({ error: 'ConfigurationError' });
    expect(errorOf(await call(client, 'no_such_tool'))['issues']).toEqual([expect.objectContaining({ message: 'no tool no_such_tool' })]);
    expect((await call(client, 'lookup_clear_cache')).content).toEqual([{ type: 'text', text: 'Done: lookup.clearCache.' }]);
  });

  it('answers a resource it does not keep as the MCP specification says: -32602 (Invalid Params), the URI in its data', async () => {
    const { client: sdk } = clientOnFetch(looseService);
    const client = await connected({ client: sdk });
    const uri = 'delivery-sdk://files/deliveries_airway_bills-99.pdf';
    await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32602, data: { uri }, message: expect.stringContaining('Resource not found') });
  });

  it('refuses to be made without a client, with a timeout that is no time, a saveFile that is no function, an allowWrites that is no boolean or a version that is no text', () => {
    expect(() => createMcpServer({} as McpServerOptions)).toThrow(ConfigurationError);
    const { client } = clientOnFetch(looseService);
    expect(() => createMcpServer({ client, timeout: 0 })).toThrow(/timeout/);
    // A folder where a function belongs would fail only at the first label, after the service had printed it.
    const saveFile = './labels' as unknown as McpServerOptions['saveFile'];
    expect(() => createMcpServer({ client, saveFile })).toThrow(ConfigurationError);
    expect(() => createMcpServer({ client, saveFile })).toThrow(/saveFile/);
    // 'false' read from a configuration file is a string, and a string is truthy: it must not list the writes.
    const allowWrites = 'false' as unknown as boolean;
    expect(() => createMcpServer({ client, allowWrites })).toThrow(ConfigurationError);
    expect(() => createMcpServer({ client, allowWrites })).toThrow(/allowWrites/);
    // A version read as a number (1.2 in a configuration file) would reach the clients as what the protocol calls no version.
    const version = 1.2 as unknown as string;
    expect(() => createMcpServer({ client, version })).toThrow(ConfigurationError);
    expect(() => createMcpServer({ client, version })).toThrow(/version/);
  });

  it('gives each call the timeout of the server, or of its arguments where the tool takes one', async () => {
    const { client: sdk, sent } = clientOnFetch(() => new Promise<Response>(() => {}));
    const client = await connected({ client: sdk, timeout: 50 });
    expect(errorOf(await call(client, 'deliveries_get', { trackingNumber: '70000012' }))).toMatchObject({ error: 'TimeoutError' });
    expect(errorOf(await call(client, 'deliveries_customer_history', { phone: '01012345678', options: { totalTimeout: 50 } }))).toMatchObject({
      error: 'TimeoutError',
    });
    expect(sent.length).toBeGreaterThan(0);
    // A key in a client is none of the answers' business.
    expect(JSON.stringify(await call(client, 'deliveries_get', { trackingNumber: '70000012' }))).not.toContain(KEY);
  });
});
