// Regressions found by the property tests (test/schemas/arbitrary-input.test.ts): arguments a JavaScript caller can
// pass that used to end in a TypeError, a request that should not have been sent, or a wrong id.
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigurationError, DeliveryClient, DeliveryError, previewBulkyMerge, ResponseShapeError, ValidationError } from '../../src/index.js';
import { createSandbox } from '../../src/testing/index.js';
import { thrownBy, validOrders } from '../support/orders.js';

const sandbox = createSandbox();
afterAll(() => sandbox.close());
const sent: string[] = [];
const recordingFetch = ((input: RequestInfo | URL, init?: RequestInit) => {
  sent.push(input instanceof Request ? input.url : String(input));
  return sandbox.fetch(input, init);
}) as typeof fetch;
const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, cache: false, maxRetries: 0, fetch: recordingFetch });
/** With the lookup cache on (the default), which shares requests and handles `signal` itself. */
const cachingClient = new DeliveryClient({ baseUrl: sandbox.baseUrl, maxRetries: 0, fetch: recordingFetch });

/** The error a call rejects with, after checking it did not throw synchronously. */
async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  let promise: Promise<unknown> | undefined;
  expect(() => {
    promise = call();
  }).not.toThrow();
  return (promise as Promise<unknown>).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('arguments of the wrong kind get a typed error and send nothing', () => {
  it('createBulk refuses what is not an array or an iterable, naming `orders`', async () => {
    const given: Array<[unknown, string]> = [
      [null, 'null'],
      [undefined, 'undefined'],
      [5, '5'],
      [{ deliveries: [validOrders.deliver()] }, 'an object'],
    ];
    for (const [orders, shown] of given) {
      for (const validate of [true, false]) {
        const error = await rejection(() => client.deliveries.createBulk(orders as never, { validate }));
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).issues).toEqual([{ path: ['orders'], message: `expected an array or an iterable of orders, received ${shown}` }]);
      }
    }
    expect(sent).toEqual([]);
  });

  it('allDistricts refuses a bare string or a countryId that is not one, and lists every country for none', async () => {
    for (const params of ['eg', { countryId: 5 }, { countryId: '  ' }]) {
      const error = await rejection(() => client.lookup.allDistricts(params as never));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]?.path).toEqual(['countryId']);
    }
    expect(sent).toEqual([]);
    expect((await client.lookup.allDistricts(null as never)).length).toBeGreaterThan(0);
    expect(sent).toEqual([`${sandbox.baseUrl}/cities/getAllDistricts`]);
    sent.length = 0;
  });

  it('resolveAddress without an input names the fields it needs', async () => {
    const error = await rejection(() => client.lookup.resolveAddress(null as never));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['city'], ['district'], ['firstLine'], ['for']]);
    expect(sent).toEqual([]);
  });

  it('previewBulkyMerge refuses what is not an array, previews orders with junk items, and refuses a BigInt as createBulky does', () => {
    expect(() => previewBulkyMerge('orders' as never)).toThrow(ValidationError);
    const receiver = { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' };
    const [group] = previewBulkyMerge([
      { ...validOrders.fulfillmentSend(), receiver, fulfillmentInfo: { items: [null, { sku: 'A', quantity: 1 }] }, notes: 'one' },
      { ...validOrders.fulfillmentSend(), receiver, fulfillmentInfo: { items: [{ sku: 'A', quantity: 2 }] }, notes: Object.create(null) },
    ] as never);
    expect(group?.order.fulfillmentInfo.items).toEqual([{ sku: 'A', quantity: 3 }]);
    expect(group?.differingFields).toEqual(['notes']);
    const bigint = thrownBy(() => previewBulkyMerge([{ ...validOrders.fulfillmentSend(), receiver, notes: 1n }] as never));
    expect(bigint).toBeInstanceOf(ValidationError);
    expect(bigint.issues[0]?.path).toEqual([0, 'notes']);
  });
});

describe('client.request with what is not a request', () => {
  it('names `method` for null, an empty object or an unknown verb, and sends nothing', async () => {
    for (const request of [null, {}, { method: 'FETCH', path: '/cities' }]) {
      const error = await rejection(() => client.request(request as never));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]?.path).toEqual(['method']);
    }
    expect(sent).toEqual([]);
  });
});

describe('per-call options of the wrong kind', () => {
  it.each([
    ['timeout', { timeout: '5s' }, /`timeout`: expected a number >= 0, received /],
    ['totalTimeout', { totalTimeout: -1 }, /`totalTimeout`: expected a number >= 0, received /],
    ['maxRetries', { maxRetries: Number.NaN }, /`maxRetries`: expected a number >= 0, received /],
    ['signal', { signal: 'stop' }, /`signal`: expected an AbortSignal, received 'stop'/],
    ['signal', { signal: {} }, /`signal`: expected an AbortSignal, received an object/],
  ])('%s %j is a ConfigurationError before anything is sent', async (_name, options, message) => {
    for (const caller of [client, cachingClient]) {
      const error = await rejection(() => caller.lookup.cities({ countryId: 'x' }, options as never));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(message);
    }
    expect(sent).toEqual([]);
  });
});

describe('options given as null count as none', () => {
  it('for a single call, a return and a bulk upload', async () => {
    const create = await rejection(() => client.deliveries.create(validOrders.deliver() as never, null as never));
    // Reaches the sandbox, which wants a business first: the options did not break the call.
    expect(create).toBeInstanceOf(DeliveryError);
    expect((create as DeliveryError).errorCode).toBe(1073);
    const ret = await rejection(() => client.fulfillment.createReturn(validOrders.fulfillmentReturn() as never, null as never));
    expect((ret as DeliveryError).errorCode).toBe(1073);
    expect(await client.deliveries.createBulk([], null as never)).toEqual({ created: [], failed: [], createdIds: [] });
    sent.length = 0;
  });
});

describe('an id the service sends as a number', () => {
  const createdWith = (data: Record<string, unknown>) =>
    new DeliveryClient({
      baseUrl: 'https://api.delivery.test/v2',
      apiKey: 'k',
      fetch: (async () => Response.json({ success: true, message: 'Created', data }, { status: 201 })) as typeof fetch,
    }).deliveries.create(validOrders.deliver() as never);

  it('is read as its digits when it is a whole number below 2^53', async () => {
    await expect(createdWith({ _id: 'o1', trackingNumber: Number.MAX_SAFE_INTEGER })).resolves.toMatchObject({ trackingNumber: '9007199254740991' });
  });

  it('beyond 2^53 (its digits already changed by JSON.parse), negative or fractional: ResponseShapeError, not a wrong id', async () => {
    for (const trackingNumber of [2 ** 60, -7, 12.5]) {
      const error = await createdWith({ _id: 'o1', trackingNumber }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseShapeError);
      expect((error as Error).message).toMatch(/without trackingNumber \(it may exist/);
    }
  });
});

describe('client.request with arguments of the wrong type', () => {
  it.each<[string, unknown, Array<string | number>]>([
    ['a BigInt path', { method: 'GET', path: 10n }, ['path']],
    ['a Symbol method', { method: Symbol('GET'), path: '/cities' }, ['method']],
    ['a string as query', { method: 'GET', path: '/cities', query: 'countryId=eg' }, ['query']],
    ['an object as a query value', { method: 'GET', path: '/cities', query: { countryId: { eg: true } } }, ['query', 'countryId']],
    ['a BigInt query value', { method: 'GET', path: '/cities', query: { page: 1n } }, ['query', 'page']],
    ['a BigInt in the body', { method: 'POST', path: '/deliveries', body: { cod: 1n } }, ['cod']],
    ['NaN in the body, which JSON would send as null', { method: 'POST', path: '/deliveries', body: { receiver: {}, cod: Number.NaN } }, ['cod']],
    ['Infinity deep in the body', { method: 'POST', path: '/x', body: { items: [{ quantity: 1 }, { quantity: -Infinity }] } }, ['items', 1, 'quantity']],
    ['a lone surrogate in a query value', { method: 'GET', path: '/cities', query: { q: 'Cairo \ud83c' } }, ['query', 'q']],
  ])('rejects %s with a ValidationError naming the field, sending nothing', async (_name, request, field) => {
    const before = sent.length;
    const error = await rejection(() => client.request(request as never));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.path).toEqual(field);
    expect(sent.length).toBe(before);
  });
});

describe('a lone surrogate, what `Cairo 🏙️`.slice(0, 7) leaves, where a URL would carry it', () => {
  const cut = 'Cairo 🏙️'.slice(0, 7);
  it.each<[string, () => Promise<unknown>, Array<string | number>]>([
    ['lookup.cities', () => client.lookup.cities({ countryId: cut }), ['countryId']],
    ['lookup.districts', () => client.lookup.districts(cut), ['cityId']],
    ['lookup.zones', () => client.lookup.zones(cut), ['cityId']],
    ['lookup.allDistricts', () => client.lookup.allDistricts({ countryId: cut }), ['countryId']],
    ['pricing.calculate', () => client.pricing.calculate({ dropOffCity: cut, pickupCity: 'Cairo' }), ['query', 'dropOffCity']],
    ['pickups.list', () => client.pickups.list({ state: cut }), ['query', 'state']],
    ['request({ query })', () => client.request({ method: 'GET', path: '/cities', query: { countryId: cut } }), ['query', 'countryId']],
  ])('%s: a ValidationError naming the field, nothing sent (not a URIError)', async (_, call, path) => {
    const before = sent.length;
    const error = await rejection(call);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.path).toEqual(path);
    expect(sent.length).toBe(before);
  });
});

describe('a value of the wrong type, or outside a set of choices, is named as given; nothing sent', () => {
  it.each([
    [
      'airwayBills size and lang',
      () => client.deliveries.airwayBills(['70000012'], { size: 'A5', lang: 7 } as never),
      [
        { path: ['size'], message: "expected 'A4' or 'A6', received 'A5'" },
        { path: ['lang'], message: "expected 'ar' or 'en', received 7" },
      ],
    ],
    [
      'search page, limit and a state code, by its index',
      () => client.deliveries.search({ page: 0, limit: '50', stateCodes: [45, '47'] } as never),
      [
        { path: ['page'], message: 'expected a whole number of at least 1, received 0' },
        { path: ['limit'], message: "expected a whole number of at least 1, received '50'" },
        { path: ['stateCodes', 1], message: "expected a state code (a whole number), received '47'" },
      ],
    ],
    [
      'search stateCodes that are no list',
      () => client.deliveries.search({ stateCodes: 45 } as never),
      [{ path: ['stateCodes'], message: 'expected an array of state codes, received 45' }],
    ],
    [
      'availableDates days',
      () => client.pickups.availableDates({ days: 1.5 }),
      [{ path: ['days'], message: 'expected a whole number of at least 1, received 1.5' }],
    ],
    [
      'update changes',
      () => client.deliveries.update('70000012', null as never),
      [{ path: [], message: 'expected an object of the fields to change, received null' }],
    ],
  ])('%s', async (_name, call, issues) => {
    const error = await rejection(call);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual(issues);
    expect(sent).toEqual([]);
  });
});
