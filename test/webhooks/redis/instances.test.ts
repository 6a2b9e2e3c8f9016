// Several instances of a webhook route on one Redis, each with its own client (instance.ts),
// receive the service's repeated, shuffled deliveries at once; one is killed midway; Redis goes away
// while requests arrive. Whatever the scheduling, the store must end with every order's newest event
// current, report each event `changed` at most once, and lose nothing that was acknowledged. Both
// clients, one suite. To Redis, instances on connections of their own are as separate as processes:
// they run in this process, and only the instance that is SIGKILLed is a process of its own (worker.ts).
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/testing/random.js';
import { createOrderTracker, createWebhookHandler, FULFILLMENT_FLOWS, TrackerStoreError, type TrackResult } from '../../../src/webhooks/index.js';
import { createRedisTrackerStore } from '../../../src/webhooks/redis.js';
import { sized } from '../../support/sizes.js';
import { flowBodies } from '../../support/webhook-bodies.js';
import { CLIENT_NAMES, type ClientName, connect } from './clients.js';
import { openInstance, type Report } from './instance.js';
import { type RedisServer, SKIP_WITHOUT_REDIS, startRedisServer } from './server.js';
import type { FromWorker } from './worker.js';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
const INSTANCES = 4;
/** Orders whose events the instances share: 500 in `npm run test:full`, fewer in `npm test` (test/support/sizes.ts). */
const ORDERS = sized(100, 500);
/** Orders of the run in which an instance is killed. */
const CRASH_ORDERS = sized(60, 200);
/** Deliveries the service has in flight per instance, as its sender would. */
const WINDOW = 32;

/** One delivery of one event. Every event of an order has its own `timeStamp`, which names it in the assertions. */
interface Delivery {
  readonly id: number;
  readonly order: string;
  readonly timeStamp: number;
  readonly body: Readonly<Record<string, unknown>>;
}
interface Answer {
  readonly delivery: Delivery;
  readonly status: number;
  readonly report: Report | null;
  readonly resent: boolean;
}
interface Scenario {
  /** Each order's event times, oldest first. */
  readonly orders: ReadonlyMap<string, readonly number[]>;
  /** Each instance's deliveries, in the order it receives them. */
  readonly queues: readonly Delivery[][];
}

function shuffle<T>(items: T[], next: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** `orderCount` orders, each a documented flow; every event delivered 2 or 3 times, shuffled, each copy to a random instance. */
function scenario(orderCount: number, seed: number): Scenario {
  const next = mulberry32(seed); // the same scenario for a seed, so that a failure can be replayed
  const flows = Object.values(FULFILLMENT_FLOWS);
  const orders = new Map<string, number[]>();
  const deliveries: Delivery[] = [];
  for (let o = 0; o < orderCount; o++) {
    const trackingNumber = String(7_000_000_000 + o);
    const bodies = flowBodies(flows[Math.floor(next() * flows.length)] as (typeof flows)[number], Number(trackingNumber));
    orders.set(
      trackingNumber,
      bodies.map((body) => body['timeStamp'] as number),
    );
    for (const body of bodies) {
      const copies = next() < 0.5 ? 2 : 3;
      for (let c = 0; c < copies; c++) deliveries.push({ id: deliveries.length, order: trackingNumber, timeStamp: body['timeStamp'] as number, body });
    }
  }
  const queues: Delivery[][] = Array.from({ length: INSTANCES }, () => []);
  for (const delivery of shuffle(deliveries, next)) queues[Math.floor(next() * INSTANCES)]?.push(delivery);
  return { orders, queues };
}

const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
});

/** One instance in this process serving `queue`, at most WINDOW deliveries in flight. Every answer goes to `answers`. */
async function serve(clientName: ClientName, port: number, keyPrefix: string, queue: readonly Delivery[], answers: Answer[], resent = false): Promise<void> {
  const instance = await openInstance(clientName, port, keyPrefix);
  try {
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < queue.length) {
        const delivery = queue[next++] as Delivery;
        answers.push({ delivery, ...(await instance.deliver(delivery.body)), resent });
      }
    };
    await Promise.all(Array.from({ length: WINDOW }, lane));
  } finally {
    await instance.close();
  }
}

/**
 * One instance as a process of its own (worker.ts) serving `queue`, at most WINDOW deliveries in
 * flight, SIGKILLed once `killAfter` answers came. Every answer goes to `answers`. Resolves with the
 * deliveries the service never got an answer for (in flight at the kill, or not yet sent).
 */
function serveUntilKilled(
  clientName: ClientName,
  port: number,
  keyPrefix: string,
  queue: readonly Delivery[],
  answers: Answer[],
  killAfter: number,
): Promise<Delivery[]> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [clientName, String(port), keyPrefix], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    running.add(child);
    const inFlight = new Map<number, Delivery>();
    let sent = 0;
    let answered = 0;
    let killed = false;
    const pump = (): void => {
      while (!killed && inFlight.size < WINDOW && sent < queue.length) {
        const delivery = queue[sent++] as Delivery;
        inFlight.set(delivery.id, delivery);
        child.send({ delivery: delivery.id, body: delivery.body });
      }
    };
    child.on('message', (message: FromWorker) => {
      if ('ready' in message) return pump();
      const delivery = inFlight.get(message.delivery);
      if (delivery === undefined) return reject(new Error(`an answer to delivery ${message.delivery}, never sent to this instance`));
      inFlight.delete(message.delivery);
      // An answer that arrives after the kill was still sent by the instance: the service has it.
      answers.push({ delivery, status: message.status, report: message.report, resent: false });
      answered++;
      if (!killed && answered === killAfter) {
        killed = true;
        child.kill('SIGKILL');
      }
      pump();
    });
    child.once('error', reject);
    // Done once the process exited and its IPC channel closed: no answer can arrive after that.
    let exit: string | undefined;
    const finish = (): void => {
      if (exit === undefined || child.connected) return;
      running.delete(child);
      if (killed && exit === 'SIGKILL') resolve([...inFlight.values(), ...queue.slice(sent)]);
      else reject(new Error(`instance exited (${exit}) before it was killed, with ${inFlight.size} deliveries unanswered, ${queue.length - sent} unsent`));
    };
    child.once('exit', (code, signal) => {
      exit = String(code ?? signal);
      finish();
    });
    child.once('disconnect', finish);
  });
}

/** What Redis holds at the end, read by a tracker of the test's own: each order's current event time and history times. */
async function finalState(
  clientName: ClientName,
  port: number,
  keyPrefix: string,
  orders: Iterable<string>,
): Promise<Map<string, { current: number | undefined; history: number[] }>> {
  const connected = await connect(clientName, port);
  try {
    const tracker = createOrderTracker({ store: createRedisTrackerStore({ client: connected.client, keyPrefix }) });
    const state = new Map<string, { current: number | undefined; history: number[] }>();
    for (const order of orders)
      state.set(order, {
        current: (await tracker.current(order))?.timeStamp,
        history: (await tracker.history(order)).map((event) => event.timeStamp ?? Number.NaN),
      });
    return state;
  } finally {
    await connected.close();
  }
}

const byEvent = (answers: readonly Answer[]): Map<string, Answer[]> => {
  const grouped = new Map<string, Answer[]>();
  for (const answer of answers) {
    const key = `${answer.delivery.order}@${answer.delivery.timeStamp}`;
    grouped.set(key, [...(grouped.get(key) ?? []), answer]);
  }
  return grouped;
};

let server: RedisServer;
beforeAll(async () => {
  if (!SKIP_WITHOUT_REDIS) server = await startRedisServer();
});
afterAll(() => server?.dispose());

describe.skipIf(SKIP_WITHOUT_REDIS).each(CLIENT_NAMES)('several instances on one Redis, through %s', (clientName) => {
  it(`${INSTANCES} instances get ${ORDERS} orders' events, each delivered 2 or 3 times, shuffled, at once: one truth`, async () => {
    const keyPrefix = `converge:${clientName}:`;
    const { orders, queues } = scenario(ORDERS, 17);
    const answers: Answer[] = [];
    await Promise.all(queues.map((queue) => serve(clientName, server.port, keyPrefix, queue, answers)));
    expect(answers).toHaveLength(queues.flat().length);
    expect(answers.filter((answer) => answer.status !== 200 || answer.report === null)).toEqual([]);
    const state = await finalState(clientName, server.port, keyPrefix, orders.keys());
    const reports = (list: readonly Answer[]): Report[] => list.map((answer) => answer.report as Report);

    for (const [order, times] of orders) {
      // Every order ends on its newest event, with each event once in its history.
      expect(state.get(order)).toEqual({ current: times.at(-1), history: times });

      // No duplicate reported as new: of an event's 2 or 3 deliveries, exactly one is not a duplicate.
      const ofOrder = answers.filter((answer) => answer.delivery.order === order);
      const firsts: Array<Report & { timeStamp: number }> = [];
      for (const [, copies] of byEvent(ofOrder)) {
        const first = reports(copies).filter((report) => !report.duplicate);
        expect(first).toHaveLength(1);
        firsts.push({ ...(first[0] as Report), timeStamp: (copies[0] as Answer).delivery.timeStamp });
        expect(reports(copies).filter((report) => report.duplicate && report.changed)).toEqual([]);
      }

      // A "newer" event is one newer than the order's current event at the moment Redis stored it
      // (its report's `previous`: none, or older). Exactly the newer events are reported changed.
      const newer = firsts.filter((first) => first.previous === null || first.previous < first.timeStamp);
      const changed = reports(ofOrder).filter((report) => report.changed);
      expect(changed.length).toBe(newer.length);
      expect(firsts.filter((first) => first.changed !== newer.includes(first))).toEqual([]);
      // And the reports agree on one order of storage: the changed events form one chain from the
      // order's first stored event to its newest, each naming the one before it as `previous`; an
      // event stored late (stale) saw a current state of that chain, newer than itself.
      const chain = newer.map((first) => first.timeStamp).sort((a, b) => a - b);
      expect(newer.map((first) => [first.previous, first.timeStamp]).sort((a, b) => (a[1] as number) - (b[1] as number))).toEqual(
        chain.map((time, i) => [i === 0 ? null : chain[i - 1], time]),
      );
      expect(chain.at(-1)).toBe(times.at(-1));
      for (const first of firsts.filter((candidate) => !newer.includes(candidate))) {
        expect(first).toMatchObject({ stale: true, changed: false, current: first.previous });
        expect(chain).toContain(first.previous);
        expect(first.previous).toBeGreaterThan(first.timeStamp);
      }
    }
  }, 240_000);

  it("an instance SIGKILLed midway loses nothing it acknowledged, and the service's re-sends are handled", async () => {
    const keyPrefix = `crash:${clientName}:`;
    const { orders, queues } = scenario(CRASH_ORDERS, 1717);
    const answers: Answer[] = [];
    const victim = queues[0] as Delivery[];
    const killAfter = Math.floor(victim.length / 3);
    const [unanswered] = await Promise.all([
      serveUntilKilled(clientName, server.port, keyPrefix, victim, answers, killAfter),
      ...queues.slice(1).map((queue) => serve(clientName, server.port, keyPrefix, queue, answers)),
    ]);
    // Midway: the killed instance left deliveries unanswered (at least those it was never sent).
    expect((unanswered as Delivery[]).length).toBeGreaterThan(victim.length - killAfter - WINDOW - 1);
    const inFlightAtKill = new Set((unanswered as Delivery[]).map((delivery) => `${delivery.order}@${delivery.timeStamp}`));

    // The service delivers again what was not acknowledged, here to a new instance.
    await serve(clientName, server.port, keyPrefix, unanswered as Delivery[], answers, true);
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    expect(answers).toHaveLength(queues.flat().length);

    const state = await finalState(clientName, server.port, keyPrefix, orders.keys());
    for (const [order, times] of orders) {
      // Nothing acknowledged is lost (every event was acknowledged by now), nothing is doubled.
      expect(state.get(order)).toEqual({ current: times.at(-1), history: times });
    }
    for (const [key, copies] of byEvent(answers)) {
      const reports = copies.map((answer) => answer.report as Report);
      // Never two firsts. None among the answers only if the killed instance stored it and died before answering.
      const firsts = reports.filter((report) => !report.duplicate).length;
      expect(firsts).toBeLessThanOrEqual(1);
      if (firsts === 0) expect(inFlightAtKill.has(key)).toBe(true);
    }
    const newest = new Map([...orders].map(([order, times]) => [order, times.at(-1)]));
    const resentNewest = answers.filter((answer) => answer.resent && answer.delivery.timeStamp === newest.get(answer.delivery.order));
    // A re-sent newest event is never stale, stored before the crash or not: the merchant writes it again.
    for (const answer of resentNewest) expect(answer.report).toMatchObject({ stale: false, current: answer.delivery.timeStamp });
    // The changed reports that reached the service never left one state twice.
    for (const order of orders.keys()) {
      const left = answers.filter((answer) => answer.delivery.order === order && answer.report?.changed).map((answer) => answer.report?.previous);
      expect(new Set(left).size).toBe(left.length);
    }
  }, 240_000);

  it('Redis stopped while webhooks arrive: 500, nothing acknowledged; once it is back, the re-sends are tracked', async () => {
    const own = await startRedisServer();
    const connected = await connect(clientName, own.port);
    try {
      // While Redis is away the client is reconnecting, and each call waits readyTimeoutMs before its 500: short here.
      const tracker = createOrderTracker({ store: createRedisTrackerStore({ client: connected.client, keyPrefix: 'outage:', readyTimeoutMs: 100 }) });
      const results = new WeakMap<Request, TrackResult>();
      const failures: unknown[] = [];
      const handler = createWebhookHandler({
        onEvent: async (event, request) => void results.set(request, await tracker.track(event)),
        onError: (error) => failures.push(error),
      });
      const post = async (body: Readonly<Record<string, unknown>>): Promise<{ status: number; result: TrackResult | undefined }> => {
        const request = new Request('http://127.0.0.1/webhooks', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const response = await handler(request);
        return { status: response.status, result: results.get(request) };
      };
      const flows = Object.values(FULFILLMENT_FLOWS);
      const orders = Array.from({ length: 30 }, (_, o) => flowBodies(flows[o % flows.length] as (typeof flows)[number], 8_000_000_000 + o));

      // Before: the first half of every order's events, acknowledged.
      const before = orders.flatMap((bodies) => bodies.slice(0, bodies.length >> 1));
      for (const body of before) expect((await post(body)).status).toBe(200);
      // Redis stops while the next event of every order is on its way: each is answered 200 or
      // 500, never acknowledged without being stored (checked at the end).
      const during = orders.map((bodies) => bodies[bodies.length >> 1] as Record<string, unknown>);
      // It writes its data on the way down and loads it when it comes back, as a Redis with persistence does.
      const [answersDuring] = await Promise.all([Promise.all(during.map(post)), own.stop({ keepData: true })]);
      // While it is away: every request 500, a TrackerStoreError for the logs.
      const after = orders.flatMap((bodies) => bodies.slice((bodies.length >> 1) + 1));
      failures.length = 0;
      // All at once, as webhooks arrive: each waits readyTimeoutMs for the absent Redis side by side, not one after another.
      const answersAfter = await Promise.all(after.map(post));
      expect(answersAfter.map((answer) => answer.status)).toEqual(after.map(() => 500));
      expect(failures).toHaveLength(after.length);
      for (const failure of failures) expect(failure).toBeInstanceOf(TrackerStoreError);

      await own.start();
      // The client reconnects by itself (bounded wait; no timing asserted).
      for (let i = 0; i < 300; i++) {
        if (
          await tracker.current('8000000000').then(
            () => true,
            () => false,
          )
        )
          break;
        await new Promise((next) => setTimeout(next, 100));
      }
      // The service re-sends everything not acknowledged, and repeats some that were.
      const unacknowledged = [...during.filter((_, i) => answersDuring[i]?.status !== 200), ...after];
      const resent = await Promise.all(unacknowledged.map(post));
      expect(resent.map((answer) => answer.status)).toEqual(unacknowledged.map(() => 200));
      // Those that were never stored are new now; only one on its way during the stop may have been stored unanswered.
      for (const [i, answer] of resent.entries()) {
        if (i >= unacknowledged.length - after.length) expect(answer.result?.duplicate).toBe(false);
      }
      for (const body of before.slice(0, 10)) expect((await post(body)).result).toMatchObject({ duplicate: true, changed: false });

      for (const bodies of orders) {
        const trackingNumber = String(bodies[0]?.['trackingNumber']);
        const history = await tracker.history(trackingNumber);
        // Every event once, the acknowledged ones before the stop included; the newest is current.
        expect(history.map((event) => event.timeStamp)).toEqual(bodies.map((body) => body['timeStamp']));
        expect((await tracker.current(trackingNumber))?.timeStamp).toBe(bodies.at(-1)?.['timeStamp']);
      }
    } finally {
      await connected.close();
      await own.dispose();
    }
  }, 240_000);
});
