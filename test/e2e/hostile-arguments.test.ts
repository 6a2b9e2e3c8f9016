// Every public function of every entry reads its arguments inside the typed-error boundary: given
// hostile values in any position (null, lone surrogates, revoked Proxies, Proxies and getters that
// throw, null-prototype objects, BigInts, holes), it returns, or throws or rejects with a
// DeliveryError, never a TypeError, a URIError or a RangeError. The functions are read off the
// entries' exports, so a new export is fuzzed the day it is added.
import { afterAll, describe, expect, it } from 'vitest';
import * as functions from '../../src/functions/index.js';
import * as main from '../../src/index.js';
import { createSandbox } from '../../src/testing/index.js';
import * as webhooks from '../../src/webhooks/index.js';
import * as webhooksNode from '../../src/webhooks/node.js';
import { validOrders } from '../support/orders.js';

const { ConfigurationError, DeliveryClient, DeliveryError } = main;
const { DeliveryCore } = functions;

const sandbox = createSandbox();
afterAll(() => sandbox.close());
const options = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch, maxRetries: 0, cache: false as const };

const boom = (): never => {
  throw new RangeError('trap');
};
const EVERY_TRAP: ProxyHandler<object> = { get: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom, getPrototypeOf: boom, apply: boom };
const revoked = (): unknown => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

/** The hostile values, each built fresh. */
const HOSTILE: Array<[string, () => unknown]> = [
  ['undefined', () => undefined],
  ['null', () => null],
  ['NaN', () => Number.NaN],
  ['a BigInt', () => 7n],
  ['a symbol', () => Symbol('x')],
  ['a function', () => () => 1],
  ['a lone surrogate', () => 'Cairo \ud83c'],
  ['an object holding a lone surrogate', () => ({ countryId: 'eg\ud83c', city: '\udc00', trackingNumber: '\ud800' })],
  ['a null-prototype object', () => Object.create(null)],
  // biome-ignore lint/suspicious/noSparseArray: the holes are the point
  ['an array with holes', () => [, , '70000012']],
  ['a revoked Proxy', revoked],
  ['a Proxy whose traps throw', () => new Proxy({}, EVERY_TRAP)],
  [
    'an order whose getters throw',
    () => Object.defineProperties({ ...validOrders.deliver() }, { type: { enumerable: true, get: boom }, cod: { enumerable: true, get: boom } }),
  ],
  ['an order whose toJSON throws', () => ({ ...validOrders.deliver(), toJSON: boom })],
  ['a list whose element getter throws', () => Object.defineProperty([validOrders.deliver(), validOrders.deliver()], 1, { enumerable: true, get: boom })],
  // biome-ignore lint/suspicious/noThenProperty: a thenable is the point
  ['a thenable', () => ({ then: boom })],
];

/** Settles whatever a call returned: a promise, an async iterable (read once), or a plain value. */
async function settle(result: unknown): Promise<unknown> {
  if (result !== null && typeof result === 'object' && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    const iterator = (result as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    try {
      await iterator.next();
    } finally {
      await iterator.return?.();
    }
    return undefined;
  }
  return result;
}

/** Calls `call`, and returns what it threw or rejected with (undefined when it did neither). */
async function failureOf(call: () => unknown): Promise<unknown> {
  try {
    await settle(call());
    return undefined;
  } catch (error) {
    return error;
  }
}

/** Each argument position set to the hostile value in turn, the others left out; then all of them. */
function argumentLists(arity: number, value: () => unknown): unknown[][] {
  const lists: unknown[][] = [];
  for (let position = 0; position < Math.max(arity, 1); position++) {
    const list: unknown[] = Array.from({ length: position + 1 }, () => undefined);
    list[position] = value();
    lists.push(list);
  }
  lists.push(Array.from({ length: Math.max(arity, 1) }, value));
  return lists;
}

const isClass = (value: unknown): boolean => typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value));

/** The plain functions an entry exports (classes are constructed below, or are error classes and resources). */
const functionsOf = (entry: Record<string, unknown>): Array<[string, (...args: unknown[]) => unknown]> =>
  Object.entries(entry).filter((pair): pair is [string, (...args: unknown[]) => unknown] => typeof pair[1] === 'function' && !isClass(pair[1]));

async function expectTypedFailures(call: (...args: unknown[]) => unknown, arity: number, first: unknown[] = []): Promise<void> {
  for (const [name, value] of HOSTILE) {
    for (const args of argumentLists(arity, value)) {
      const failure = await failureOf(() => call(...first, ...args));
      if (failure !== undefined) expect(failure, `${name} in ${JSON.stringify(args.map((a) => typeof a))}: ${String(failure)}`).toBeInstanceOf(DeliveryError);
    }
  }
}

describe('every exported function, given hostile arguments, fails only with a DeliveryError', () => {
  it.each(functionsOf(main))('delivery-sdk %s', async (_, fn) => expectTypedFailures(fn, fn.length));

  it.each(functionsOf(functions))('delivery-sdk/functions %s, with a real core first', async (_, fn) => {
    await expectTypedFailures(fn, fn.length - 1, [new DeliveryCore(options)]);
  });

  it.each(functionsOf(functions))('delivery-sdk/functions %s, with a hostile core', async (_, fn) => expectTypedFailures(fn, fn.length));

  it.each([...functionsOf(webhooks), ...functionsOf(webhooksNode)])('delivery-sdk/webhooks %s', async (_, fn) => expectTypedFailures(fn, fn.length || 1));

  it('the constructors of DeliveryClient and DeliveryCore, given hostile options, throw a ConfigurationError (a DeliveryError), every one', () => {
    for (const Class of [DeliveryClient, DeliveryCore]) {
      for (const [name, value] of HOSTILE) {
        let failure: unknown;
        try {
          new Class(value() as never);
        } catch (error) {
          failure = error;
        }
        // None of these is a usable options object (none has a baseUrl): each must throw, and only this.
        expect(failure, `new ${Class.name}(${name}) threw nothing`).toBeDefined();
        expect(failure, `new ${Class.name}(${name}): ${String(failure)}`).toBeInstanceOf(ConfigurationError);
        expect(failure).toBeInstanceOf(DeliveryError);
      }
    }
  });
});

describe('every client method, given hostile arguments, fails only with a DeliveryError', () => {
  const client = new DeliveryClient(options);
  const namespaces = Object.entries(client).filter(([, value]) => typeof value === 'object' && value !== null) as Array<[string, object]>;
  const methods = namespaces.flatMap(([namespace, resource]) =>
    Object.getOwnPropertyNames(Object.getPrototypeOf(resource))
      .filter((name) => name !== 'constructor' && typeof (resource as Record<string, unknown>)[name] === 'function')
      .map((name) => [`${namespace}.${name}`, resource, name] as const),
  );

  it('covers every namespace', () => {
    expect(namespaces.map(([name]) => name).sort()).toEqual([
      'businesses',
      'deliveries',
      'fulfillment',
      'lookup',
      'pickupLocations',
      'pickups',
      'pricing',
      'users',
    ]);
  });

  it.each(methods)('%s', async (_, resource, name) => {
    const method = (resource as Record<string, (...args: unknown[]) => unknown>)[name] as (...args: unknown[]) => unknown;
    await expectTypedFailures((...args) => method.apply(resource, args), method.length);
  });

  it('request', async () => expectTypedFailures((...args) => client.request(...(args as [never])), 2));
});

describe('hostile values inside the arguments (the fuzz leftovers of issue 40) fail only with a DeliveryError', () => {
  const client = new DeliveryClient(options);
  const revokedArray = (): unknown => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    return proxy;
  };
  it.each([
    ['NaN', () => Number.NaN],
    ['a number', () => 5],
    ['a revoked Proxy', revoked],
    ['a revoked array Proxy', revokedArray],
    ['a Proxy whose traps throw', () => new Proxy([], EVERY_TRAP)],
    ['an array holding a revoked Proxy', () => [revoked()]],
  ])('resolveTrackingNumbers given createdIds: %s', async (_, createdIds) => {
    const failure = await failureOf(() =>
      client.deliveries.resolveTrackingNumbers({ created: [{ index: 0, businessReference: 'R-1' }], failed: [], createdIds: createdIds() } as never),
    );
    expect(failure).toBeInstanceOf(DeliveryError);
  });

  it.each([
    ['a revoked array Proxy', revokedArray],
    ['an array Proxy whose traps throw', () => new Proxy([], EVERY_TRAP)],
    ['an array holding a revoked Proxy', () => [revoked()]],
    ['an array holding a revoked array Proxy', () => [revokedArray()]],
    ['an array holding a Proxy whose traps throw', () => [new Proxy({}, EVERY_TRAP)]],
    ['an iterable whose iterator is a revoked Proxy', () => ({ [Symbol.iterator]: () => revoked() })],
    ['an async iterable whose next() returns a revoked Proxy', () => ({ [Symbol.asyncIterator]: () => ({ next: async () => revoked() }) })],
    [
      'an iterator that throws on its second read, its return a revoked Proxy',
      () => {
        let reads = 0;
        const next = (): IteratorResult<unknown> => {
          if (reads++ > 0) throw new Error('cursor lost');
          return { value: validOrders.deliver(), done: false };
        };
        return { [Symbol.iterator]: () => ({ next, return: revoked() }) };
      },
    ],
  ])('createBulk and streamBulk given %s', async (_, orders) => {
    expect(await failureOf(() => client.deliveries.createBulk(orders() as never))).toBeInstanceOf(DeliveryError);
    // A stream may refuse the order on its own (in its chunk's failed) and end: it never throws anything but a DeliveryError.
    const streamed = await failureOf(() => client.deliveries.streamBulk(orders() as never));
    if (streamed !== undefined) expect(streamed).toBeInstanceOf(DeliveryError);
    expect(await failureOf(() => client.deliveries.createBulk([validOrders.deliver()] as never, revoked() as never))).toBeInstanceOf(DeliveryError);
  });

  it.each([
    ['a revoked Proxy', revoked],
    ['a Proxy whose traps throw', () => new Proxy({}, EVERY_TRAP)],
    ['an event whose fields are revoked Proxies', () => ({ trackingNumber: revoked(), state: 45, timeStamp: 1 })],
    ['an event Proxy whose traps throw', () => new Proxy({ trackingNumber: '70000012', state: 45, timeStamp: 1 }, EVERY_TRAP)],
  ])('tracker.track given %s, in memory and over a store', async (_, event) => {
    const stored = new Map<string, string>();
    const store = {
      record: async () => ({ duplicate: false, previous: undefined }),
      current: async (trackingNumber: string) => stored.get(trackingNumber),
      history: async () => [],
      forget: async () => false,
    };
    for (const tracker of [webhooks.createOrderTracker(), webhooks.createOrderTracker({ store })]) {
      const failure = await failureOf(() => tracker.track(event() as never));
      expect(failure).toBeInstanceOf(DeliveryError);
    }
  });

  it.each([
    ['auth', revoked],
    ['auth', () => new Proxy([], EVERY_TRAP)],
    ['auth', () => [revoked()]],
    ['on', revoked],
    ['on', () => new Proxy({}, EVERY_TRAP)],
    ['onEvent', revoked],
    ['maxBodyBytes', revoked],
    ['bodyTimeoutMs', () => new Proxy({}, EVERY_TRAP)],
  ])('createWebhookHandler given %s as a hostile value', async (name, value) => {
    const failure = await failureOf(() => webhooks.createWebhookHandler({ [name]: value() } as never));
    expect(failure).toBeInstanceOf(DeliveryError);
  });
});
