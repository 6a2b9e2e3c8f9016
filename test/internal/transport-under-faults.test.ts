// 2,000 mixed calls (`npm run test:full`; 700 in `npm test`, test/support/sizes.ts) through the
// sandbox's HTTP server on 127.0.0.1, with a seeded 10% of the
// requests bent by every fault the sandbox can inject. What must hold whatever the faults:
// every call settles, as a value or a typed DeliveryError; idempotent calls get through unless
// every attempt they were allowed was hit; no order is created twice; nothing is left running.
// Which request draws which fault depends on the order requests reach the server, and on a loaded
// machine any answer may come after the client's timeout: the assertions hold whatever the order
// and the load.
import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runPool } from '../../bench/lib/pool.mjs';
import {
  type BulkCreateResult,
  BulkCreationError,
  ConnectionError,
  CountryId,
  type CreatedDelivery,
  DeliveryClient,
  DeliveryError,
  DeliveryType,
  FulfillmentType,
  type OrderInput,
  RateLimitError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
} from '../../src/index.js';
import { FaultInjector } from '../../src/testing/faults.js';
import { createSandbox, FAULT_KINDS, type FaultKind, type FaultOptions, type Sandbox, type SandboxServer } from '../../src/testing/index.js';
import { mulberry32 } from '../../src/testing/random.js';
import { sized } from '../support/sizes.js';

const CALLS = sized(700, 2_000);
const CONCURRENCY = 32;
const MAX_RETRIES = 2;
/** Per attempt. A `slow` answer comes well after it; a healthy one, in a few milliseconds. */
const TIMEOUT_MS = 800;
const FAULTS: FaultOptions = { rate: 0.1, kinds: FAULT_KINDS, seed: 20_250_130, slowMs: 1_200, retryAfterSeconds: 0.01 };
/** Far beyond what a call may take (3 attempts of TIMEOUT_MS and short waits): reaching it means a hung promise. */
const GUARD_MS = 15_000;

const DOKKI = 'district-eg-giza-dokki';
const MAKRAM_EBEID = 'district-eg-cairo-makram-ebeid';
const dropOffAddress = { city: 'Giza', districtId: DOKKI, firstLine: '12 Tahrir Street, 3rd floor' };
const pickupAddress = { city: 'Cairo', districtId: MAKRAM_EBEID, firstLine: '5 Makram Ebeid Street' };
const receiver = { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' };

/** What the hooks saw of one call: its attempts, the errors it retried after, the error it gave up on. */
interface Trace {
  attempts: number;
  retriedAfter: Error[];
  gaveUpOn: Error[];
}

type Outcome = { settled: 'value'; value: unknown } | { settled: 'error'; error: unknown } | { settled: 'hung' };

interface Call {
  kind: string;
  /** GET calls are the idempotent ones; every POST of the API and updatePickupLocations are not. */
  idempotent: boolean;
  /** businessReference of each order the call creates, in input order. */
  refs: string[];
  run: () => Promise<unknown>;
  trace: Trace;
  outcome?: Outcome;
}

const traces = new AsyncLocalStorage<Trace>();
const traceOf = (): Trace => {
  const trace = traces.getStore();
  if (trace === undefined) throw new Error('a hook ran outside any traced call');
  return trace;
};

/** Races `promise` against a guard timer, cleared as soon as the promise settles. */
function settle(promise: Promise<unknown>): Promise<Outcome> {
  let guard: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<Outcome>((resolve) => {
    guard = setTimeout(() => resolve({ settled: 'hung' }), GUARD_MS);
  });
  const settled = promise.then(
    (value): Outcome => ({ settled: 'value', value }),
    (error: unknown): Outcome => ({ settled: 'error', error }),
  );
  return Promise.race([settled, hung]).finally(() => clearTimeout(guard));
}

async function runAll(calls: Call[]): Promise<void> {
  await runPool(calls.length, CONCURRENCY, async (index) => {
    const call = calls[index]!;
    call.outcome = await traces.run(call.trace, () => settle(call.run()));
  });
}

/** Every fault the sandbox injected, as it drew them (the server's side of the story). */
const injected: FaultKind[] = [];

/** Counts of the faults the sandbox injected, per kind. */
function faultsDrawn(): Record<FaultKind, number> {
  const counts = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
  for (const kind of injected) counts[kind]++;
  return counts;
}

/** The fault kind behind an error one attempt ended with. */
function faultBehind(error: Error): FaultKind | 'drop' | 'other' {
  if (error instanceof RateLimitError) return 'rate-limit';
  if (error instanceof ServerError && error.status === 503) return 'unavailable';
  if (error instanceof TimeoutError) return 'slow';
  if (error instanceof ConnectionError) return 'drop';
  if (error instanceof ResponseShapeError) return 'malformed';
  return 'other';
}

/**
 * Timers, sockets and servers created from now on that are still open. The SDK, the sandbox and
 * undici all create them; once the calls have ended and the server is closed, none may remain.
 */
function trackResources(): { open: () => string[]; stopRecording: () => void; stop: () => void } {
  const tracked = new Set(['Timeout', 'TCPWRAP', 'TCPSERVERWRAP', 'TCPCONNECTWRAP']);
  const open = new Map<number, string>();
  let recording = true;
  const hook = createHook({
    init: (id, type, _trigger, resource) => {
      if (!recording || !tracked.has(type)) return;
      const ms = (resource as { _idleTimeout?: unknown })._idleTimeout;
      open.set(id, typeof ms === 'number' ? `${type} of ${ms} ms` : type);
    },
    destroy: (id) => {
      open.delete(id);
    },
  }).enable();
  return { open: () => [...open.values()], stopRecording: () => void (recording = false), stop: () => hook.disable() };
}

describe(`${CALLS} mixed calls over HTTP with 10% of the requests faulted`, () => {
  let sandbox: Sandbox;
  let server: SandboxServer;
  let client: DeliveryClient;
  let resources: ReturnType<typeof trackResources>;
  let retries = 0;
  let requests = 0;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };
  const calls: Call[] = [];
  let elapsedMs = 0;

  beforeAll(async () => {
    const draw = FaultInjector.prototype.draw;
    vi.spyOn(FaultInjector.prototype, 'draw').mockImplementation(function (this: FaultInjector) {
      const kind = draw.call(this);
      if (kind !== undefined) injected.push(kind);
      return kind;
    });
    resources = trackResources();
    process.on('unhandledRejection', onUnhandled);
    sandbox = createSandbox({ seed: 9 });
    server = await sandbox.listen();

    // The account, set up before any fault: a business with a pickup location, admins to verify.
    const setup = new DeliveryClient({ baseUrl: server.baseUrl, apiKey: sandbox.apiKey, maxRetries: 0 });
    const business = await setup.businesses.create({ name: 'Nile Shop', salesChannel: 'FACEBOOK_SELLER' });
    await setup.businesses.updatePickupLocations(business._id, [{ locationName: 'Warehouse', districtId: MAKRAM_EBEID, firstLine: '5 Makram Ebeid Street' }]);
    const admin = async (n: number) => {
      const phone = `+2010${String(n).padStart(8, '0')}`;
      const email = `admin-${n}@nile.example`;
      await setup.users.registerBusinessAdmin({
        email,
        password: 's3cret!',
        countryId: CountryId.Egypt,
        profile: { firstName: 'Mona', lastName: 'Adel', phone },
      });
      return { phone, email };
    };
    const toVerify = await Promise.all(Array.from({ length: 8 }, (_, n) => admin(n)));
    const toConfirm: Array<{ phone: string; token: string }> = [];
    for (let n = 100; n < 180; n++) {
      const { phone } = await admin(n);
      await setup.users.verifyPhone({ phone });
      toConfirm.push({ phone, token: sandbox.lastOtp(phone) as string });
    }
    const emailTokens = toVerify.map(({ email }) => sandbox.lastEmailToken(email) as string);

    client = new DeliveryClient({
      baseUrl: server.baseUrl,
      apiKey: sandbox.apiKey,
      timeout: TIMEOUT_MS,
      totalTimeout: 60_000,
      maxRetries: MAX_RETRIES,
      retryDelay: { base: 5, max: 20 },
      cache: false,
      hooks: {
        onRequest: () => {
          requests++;
          traceOf().attempts++;
        },
        onRetry: ({ error }) => {
          retries++;
          traceOf().retriedAfter.push(error);
        },
        onError: ({ error }) => traceOf().gaveUpOn.push(error),
      },
    });

    const random = mulberry32(7); // seeded, so the mix of calls is the same on every run
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const numeric = [DeliveryType.Deliver, DeliveryType.CashCollection, DeliveryType.CustomerReturnPickup, DeliveryType.Exchange] as const;
    const orderFor = (ref: string): OrderInput => {
      const type = pick(numeric);
      if (type === DeliveryType.Deliver || type === DeliveryType.Exchange) return { type, dropOffAddress, receiver, cod: 250, businessReference: ref };
      if (type === DeliveryType.CashCollection) return { type, pickupAddress, receiver, cod: 500, businessReference: ref };
      return { type, pickupAddress, receiver, cod: -100, businessReference: ref };
    };
    let confirmed = 0;
    let registered = 0;
    for (let i = 0; i < CALLS; i++) {
      const roll = random();
      const call = (kind: string, idempotent: boolean, run: () => Promise<unknown>, refs: string[] = []): Call => ({
        kind,
        idempotent,
        refs,
        run,
        trace: { attempts: 0, retriedAfter: [], gaveUpOn: [] },
      });
      if (roll < 0.4) {
        const lookups = [
          () => client.lookup.cities({ countryId: CountryId.Egypt }),
          () => client.lookup.zones('city-eg-cairo'),
          () => client.lookup.districts('city-eg-giza'),
          () => client.lookup.allDistricts({ countryId: CountryId.KSA }),
        ];
        calls.push(call('lookup', true, pick(lookups)));
      } else if (roll < 0.65) {
        const ref = `order-${i}`;
        calls.push(call('deliveries.create', false, () => client.deliveries.create(orderFor(ref)), [ref]));
      } else if (roll < 0.73) {
        const ref = `fxf-${i}`;
        const order = {
          type: FulfillmentType.Send,
          dropOffAddress,
          receiver,
          fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 2 }] },
          businessReference: ref,
        };
        calls.push(call('fulfillment.create', false, () => client.fulfillment.create(order), [ref]));
      } else if (roll < 0.78) {
        const refs = Array.from({ length: 5 }, (_, n) => `bulk-${i}-${n}`);
        calls.push(call('deliveries.createBulk', false, () => client.deliveries.createBulk(refs.map(orderFor), { chunkSize: 2, concurrency: 2 }), refs));
      } else if (roll < 0.82) {
        const n = 1_000 + registered++;
        const input = {
          email: `new-${n}@nile.example`,
          password: 's3cret!',
          countryId: CountryId.Egypt,
          profile: { firstName: 'Omar', lastName: 'Said', phone: `+2011${String(n).padStart(8, '0')}` },
        };
        calls.push(call('users.registerBusinessAdmin', false, () => client.users.registerBusinessAdmin(input)));
      } else if (roll < 0.85) {
        const { phone } = pick(toVerify);
        calls.push(call('users.verifyPhone', false, () => client.users.verifyPhone({ phone })));
      } else if (roll < 0.88 && confirmed < toConfirm.length) {
        const input = toConfirm[confirmed++] as { phone: string; token: string };
        calls.push(call('users.confirmPhone', false, () => client.users.confirmPhone(input)));
      } else if (roll < 0.9) {
        const token = pick(emailTokens);
        calls.push(call('users.confirmEmail', false, () => client.users.confirmEmail({ token })));
      } else {
        const location = [{ locationName: `Shop ${i}`, districtId: MAKRAM_EBEID, firstLine: `${i} Makram Ebeid Street` }];
        calls.push(call('businesses.updatePickupLocations', false, () => client.businesses.updatePickupLocations(business._id, location)));
      }
    }

    sandbox.injectFaults(FAULTS);
    const started = performance.now();
    await runAll(calls);
    elapsedMs = performance.now() - started;
    // From here on, timers are the test runner's own.
    resources.stopRecording();
    sandbox.clearFaults();
    // About 10 s here; a loaded machine may take several times that.
  }, 120_000);

  afterAll(async () => {
    vi.restoreAllMocks();
    process.off('unhandledRejection', onUnhandled);
    resources?.stop();
    await sandbox?.close();
  });

  it('settles every call, as a value or a typed DeliveryError', () => {
    expect(calls).toHaveLength(CALLS);
    const hung = calls.filter((call) => call.outcome?.settled !== 'value' && call.outcome?.settled !== 'error');
    expect(hung).toEqual([]);
    const untyped = calls.flatMap((call) => (call.outcome?.settled === 'error' && !(call.outcome.error instanceof DeliveryError) ? [call.outcome.error] : []));
    expect(untyped).toEqual([]);
    expect(unhandled).toEqual([]);
  });

  it('injected every kind of fault the sandbox has', () => {
    const drawn = faultsDrawn();
    for (const kind of FAULT_KINDS) expect(drawn[kind], kind).toBeGreaterThan(0);
    // Each injected fault answers one request the client sent: the server drew no more than that.
    expect(injected.length).toBeLessThanOrEqual(requests);
  });

  it('surfaces each injected fault as exactly one typed error of its kind, and nothing else fails', () => {
    const drawn = faultsDrawn();
    const seen: Record<string, number> = { 'rate-limit': 0, unavailable: 0, slow: 0, drop: 0, malformed: 0, other: 0 };
    for (const { trace } of calls)
      for (const error of [...trace.retriedAfter, ...trace.gaveUpOn]) seen[faultBehind(error)] = (seen[faultBehind(error)] ?? 0) + 1;
    // An attempt fails only through a fault, or by answering after the client's timeout (every
    // slow fault does; on a loaded machine any answer may): nothing else fails an attempt.
    expect(seen['other'], 'attempts that failed with an error no fault explains').toBe(0);
    // No error of a kind without a fault of that kind behind it: none surfaces twice, none is invented.
    const answered = {
      'rate-limit': drawn['rate-limit'],
      unavailable: drawn.unavailable,
      drop: drawn['drop-before'] + drawn['drop-after'],
      malformed: drawn.malformed,
    };
    for (const [kind, faults] of Object.entries(answered)) expect(seen[kind], kind).toBeLessThanOrEqual(faults);
    // Every fault surfaces: each one its client did not see as its kind, it saw as a timeout.
    const lateAnswers = Object.entries(answered).reduce((sum, [kind, faults]) => sum + faults - (seen[kind] ?? 0), 0);
    expect(seen['slow'], 'timeouts: one per slow fault, and one per fault answered too late').toBeGreaterThanOrEqual(drawn.slow + lateAnswers);
  });

  it('gets every idempotent call through unless all its attempts were faulted', () => {
    const lookups = calls.filter((call) => call.idempotent);
    expect(lookups.length).toBeGreaterThan(CALLS / 4);
    expect(lookups.filter(({ trace }) => trace.attempts > 1).length, 'lookups that needed a retry').toBeGreaterThan(10);
    for (const { trace, outcome } of lookups) {
      // Every fault kind is worth retrying for a GET, so each failed attempt but the last was retried.
      expect(trace.retriedAfter).toHaveLength(trace.attempts - 1);
      if (outcome?.settled === 'error') {
        expect(trace.attempts).toBe(MAX_RETRIES + 1);
        expect([...trace.retriedAfter, ...trace.gaveUpOn].map(faultBehind)).not.toContain('other');
      } else {
        expect(trace.gaveUpOn).toEqual([]);
        expect(trace.attempts).toBeLessThanOrEqual(MAX_RETRIES + 1);
      }
    }
  });

  it('repeats a non-idempotent call only after a 429, when the service said it did nothing', () => {
    const creates = calls.filter((call) => !call.idempotent);
    const repeatedAfter = creates.flatMap((call) => call.trace.retriedAfter);
    expect(repeatedAfter.length).toBeGreaterThan(0);
    for (const error of repeatedAfter) expect(error).toBeInstanceOf(RateLimitError);
    // Not vacuous: plenty of them ended on a fault that a retry could have got past, and were left there.
    const leftAlone = creates.flatMap((call) => call.trace.gaveUpOn).filter((error) => !(error instanceof RateLimitError));
    expect(leftAlone.length).toBeGreaterThan(20);
  });

  it('creates no order twice; every order reported created exists, every order refused outright does not', async () => {
    // Slow answers finish on the server after the client gave up; wait for them before counting.
    await settleServer();
    const byRef = new Map<string, Array<{ trackingNumber: string }>>();
    for (const order of sandbox.orders()) {
      const ref = order.businessReference as string;
      byRef.set(ref, [...(byRef.get(ref) ?? []), order]);
    }
    const duplicates = [...byRef].filter(([, orders]) => orders.length > 1).map(([ref]) => ref);
    expect(duplicates).toEqual([]);
    const issued = new Set(calls.flatMap((call) => call.refs));
    expect([...byRef.keys()].filter((ref) => !issued.has(ref))).toEqual([]);

    const exists = (ref: string, trackingNumber?: string): void => {
      const [order] = byRef.get(ref) ?? [];
      expect(order, ref).toBeDefined();
      if (trackingNumber !== undefined) expect(order?.trackingNumber, ref).toBe(trackingNumber);
    };
    const absent = (ref: string): void => expect(byRef.has(ref), ref).toBe(false);
    for (const call of calls.filter((c) => c.refs.length > 0)) {
      const { outcome } = call;
      if (call.kind === 'deliveries.createBulk') {
        const result: BulkCreateResult | undefined =
          outcome?.settled === 'value'
            ? (outcome.value as BulkCreateResult)
            : outcome?.settled === 'error' && outcome.error instanceof BulkCreationError
              ? outcome.error.result
              : undefined;
        expect(result, 'a bulk call ends in its result or a BulkCreationError carrying it').toBeDefined();
        for (const created of result?.created ?? []) exists(call.refs[created.index] as string, created.trackingNumber);
        for (const failed of result?.failed ?? []) if (!failed.mayExist) absent(call.refs[failed.index] as string);
        continue;
      }
      const [ref] = call.refs as [string];
      if (outcome?.settled === 'value') exists(ref, (outcome.value as CreatedDelivery).trackingNumber);
      else if (outcome?.settled === 'error') {
        // 429 and 503 of the sandbox do nothing; a truncated answer comes after the order was made.
        // A timeout says nothing either way: the request may not have reached the server in time.
        if (outcome.error instanceof RateLimitError || outcome.error instanceof ServerError) absent(ref);
        if (outcome.error instanceof ResponseShapeError) exists(ref);
      }
    }
  });

  it('leaves no socket, server or timer behind once the server is closed', async () => {
    await settleServer();
    expect(resources.open()).toEqual([]);
  });

  it('prints the tallies', async () => {
    await settleServer();
    const count = (list: readonly string[]): Record<string, number> => {
      const counts: Record<string, number> = {};
      for (const item of list) counts[item] = (counts[item] ?? 0) + 1;
      return counts;
    };
    const show = (counts: Record<string, number>): string =>
      Object.entries(counts)
        .sort(([, a], [, b]) => b - a)
        .map(([name, n]) => `${name} ${n}`)
        .join(', ') || 'none';
    const outcomes = calls.map((call) => call.outcome?.settled ?? 'hung');
    const errors = calls.flatMap((call) => (call.outcome?.settled === 'error' ? [call.outcome.error] : []));
    const typed = errors.filter((error) => error instanceof DeliveryError) as DeliveryError[];
    const lookups = calls.filter((call) => call.idempotent);
    const others = calls.filter((call) => !call.idempotent);
    const retriedAfter = (some: Call[]): Error[] => some.flatMap((call) => call.trace.retriedAfter);
    const drawn = faultsDrawn();
    const orders = sandbox.orders();
    const duplicates = orders.length - new Set(orders.map((order) => order.businessReference)).size;
    const lines = [
      `fault suite: ${calls.length} calls (${show(count(calls.map((call) => call.kind)))})`,
      `  ${requests} requests, ${retries} retries (lookups ${retriedAfter(lookups).length}; other calls ${retriedAfter(others).length}, of which after a 429: ${retriedAfter(others).filter((error) => error instanceof RateLimitError).length}), ${elapsedMs.toFixed(0)} ms at concurrency ${CONCURRENCY}`,
      `  faults injected (${FAULTS.rate * 100}% of requests): ${show(Object.fromEntries(Object.entries(drawn).filter(([kind]) => kind !== 'none')))}`,
      `  ${outcomes.filter((o) => o === 'value').length} values; typed failures: ${show(count(typed.map((error) => error.constructor.name)))}; untyped ${errors.length - typed.length}; hung ${outcomes.filter((o) => o === 'hung').length}; unhandled rejections ${unhandled.length}`,
      `  lookups: ${lookups.length}, failed ${lookups.filter((call) => call.outcome?.settled !== 'value').length}, needed a retry ${lookups.filter((call) => call.trace.attempts > 1).length}`,
      `  orders in the sandbox: ${orders.length}, duplicates: ${duplicates}; timers and sockets left open: ${resources.open().length}`,
    ];
    console.log(lines.join('\n'));
    expect(duplicates).toBe(0);
  });

  /**
   * Closes the server, then waits (at most 15 s) until every timer and socket opened since the
   * start is closed: the slow answers' timers have fired, so their orders are made.
   */
  let closing: Promise<void> | undefined;
  function settleServer(): Promise<void> {
    closing ??= (async () => {
      await server.close();
      const until = Date.now() + 15_000;
      while (resources.open().length > 0 && Date.now() < until) await new Promise((resolve) => setImmediate(resolve));
      // A fired timer's handler may still be a few microtasks from its end.
      await new Promise((resolve) => setImmediate(resolve));
    })();
    return closing;
  }
});
