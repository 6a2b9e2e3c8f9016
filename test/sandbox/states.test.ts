import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FULFILLMENT_FLOWS, isFinalState } from '../../src/catalogue/index.js';
import { type Sandbox, SandboxError, SCENARIOS, type ScenarioName } from '../../src/testing/index.js';
import { createOrder, dropOff, pickup, sandboxWithAccount, startReceiver } from '../support/sandbox.js';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let sandbox: Sandbox;
const NOW = Date.UTC(2025, 0, 30, 10, 0, 0);

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
beforeEach(async () => {
  receiver.received.length = 0;
  ({ sandbox } = await sandboxWithAccount({ now: () => NOW }));
});
afterEach(() => sandbox.close());

const ORDERS: Record<string, Record<string, unknown>> = {
  SEND: { type: 10, dropOffAddress: dropOff, cod: 450 },
  CASH_COLLECTION: { type: 15, pickupAddress: pickup, cod: 1200 },
  CRP: { type: 25, pickupAddress: pickup, cod: -200 },
  EXCHANGE: { type: 30, dropOffAddress: dropOff, cod: 80 },
  FXF_SEND: { type: 'FXF_SEND', dropOffAddress: dropOff, cod: 300, fulfillmentInfo: { items: [{ sku: 'MUG', quantity: 1 }] } },
};

async function newOrder(kind: string): Promise<string> {
  const answer = await createOrder(sandbox, {
    ...ORDERS[kind],
    businessReference: `ref-${kind}`,
    webhookUrl: receiver.url,
    webhookCustomHeaders: { 'x-shop-secret': 's3cret' },
  });
  expect(answer.status).toBe(201);
  return answer.body.data.trackingNumber;
}

const pairs = (flow: ReadonlyArray<{ state: number; type: string }>) => flow.map((s) => `${s.state}:${s.type}`);

describe('fulfillment send flows: exactly the spec sequences', () => {
  it.each(['success', 'exceptionThenSuccess', 'unsuccessful'] as const)('%s', async (scenario) => {
    const tn = await newOrder('FXF_SEND');
    await sandbox.play(tn, scenario);
    expect(pairs(sandbox.order(tn).history)).toEqual(pairs(FULFILLMENT_FLOWS[scenario]));
    // Every change but the creation is pushed, in order.
    expect(pairs(receiver.received.map((r) => r.body))).toEqual(pairs(FULFILLMENT_FLOWS[scenario]).slice(1));
  });
});

const EXPECTED: Array<[string, ScenarioName, string]> = [
  ['SEND', 'success', '10 20 21 24 30 24 41 45'],
  ['SEND', 'exceptionThenSuccess', '10 20 21 24 30 24 41 47 24 41 45'],
  ['SEND', 'unsuccessful', '10 20 21 24 30 24 41 47 24 24R 30R 24R 41R 46R'],
  ['SEND', 'threeFailedAttempts', '10 20 21 24 30 24 41 47 24 24R 41R 47R 24R 41R 47R 24R 41R 47R 103R'],
  ['CASH_COLLECTION', 'success', '11 20 40 45'],
  ['CASH_COLLECTION', 'exceptionThenSuccess', '11 20 40 47 40 45'],
  ['CASH_COLLECTION', 'unsuccessful', '11 20 40 47 40 47 40 47 48'],
  ['CASH_COLLECTION', 'threeFailedAttempts', '11 20 40 47 40 47 40 47 48'],
  ['CRP', 'success', '10 20 22 23 24 30 24 41 46'],
  ['CRP', 'exceptionThenSuccess', '10 20 22 47 22 23 24 30 24 41 46'],
  ['CRP', 'unsuccessful', '10 20 22 47 22 47 22 47 48'],
  ['CRP', 'threeFailedAttempts', '10 20 22 47 22 47 22 47 48'],
  ['EXCHANGE', 'success', '10 20 21 24 30 24 22 23 24 30 24 41 46'],
  ['EXCHANGE', 'exceptionThenSuccess', '10 20 21 24 30 24 22 47 24 22 23 24 30 24 41 46'],
  ['EXCHANGE', 'unsuccessful', '10 20 21 24 30 24 22 47 24 24R 41R 46R'],
  ['EXCHANGE', 'threeFailedAttempts', '10 20 21 24 30 24 22 23 24 30 24 41 47 24 41 47 24 41 47 103'],
];

describe('flows of the other types (docs/assumptions.md)', () => {
  it.each(EXPECTED)('%s %s', async (kind, scenario, expected) => {
    const tn = await newOrder(kind);
    await sandbox.play(tn, scenario);
    const seen = sandbox.order(tn).history.map((e) => `${e.state}${e.type === 'RTO' ? 'R' : ''}`);
    expect(seen.join(' ')).toBe(expected);
    expect(receiver.received.map((r) => r.body.state)).toEqual(
      sandbox
        .order(tn)
        .history.slice(1)
        .map((e) => e.state),
    );
  });
});

describe('fulfillment returns', () => {
  it('go back to stock (60) with the CUSTOMER_RETURN_PICKUP type', async () => {
    const original = await newOrder('FXF_SEND');
    const answer = await createOrder(sandbox, {
      type: 'CUSTOMER_RETURN_PICKUP',
      pickupAddress: pickup,
      fulfillmentInfo: { items: [{ sku: 'MUG', quantity: 1 }] },
      originalFulfillmentTrackingNumber: original,
      webhookUrl: receiver.url,
    });
    const tn: string = answer.body.data.trackingNumber;
    await sandbox.play(tn, 'success');
    expect(
      sandbox
        .order(tn)
        .history.map((e) => e.state)
        .join(' '),
    ).toBe('10 20 22 23 24 30 24 60');
    expect(receiver.received.at(-1)?.body).toMatchObject({ state: 60, type: 'CUSTOMER_RETURN_PICKUP' });
  });
});

describe('webhook bodies', () => {
  it('carry the spec fields: cod only in 45, exception fields only in 47, attempts counted', async () => {
    const tn = await newOrder('SEND');
    await sandbox.play(tn, 'exceptionThenSuccess');
    const bodies = receiver.received.map((r) => r.body);
    for (const body of bodies) {
      expect(body).toMatchObject({
        _id: expect.any(String),
        trackingNumber: tn,
        type: 'SEND',
        timeStamp: expect.any(Number),
        deliveryPromiseDate: '02-02-2025',
        businessReference: 'ref-SEND',
      });
      expect('cod' in body).toBe(body.state === 45);
      expect('exceptionCode' in body).toBe(body.state === 47);
      expect('exceptionReason' in body).toBe(body.state === 47);
      expect(body.isConfirmedDelivery).toBe(body.state === 45);
    }
    expect(bodies.find((b) => b.state === 45)?.cod).toBe(450);
    expect(bodies.find((b) => b.state === 47)).toMatchObject({
      exceptionCode: 1,
      exceptionReason: 'Retry delivery, customer not at the address',
      numberOfAttempts: 1,
    });
    expect(bodies.at(-1)?.numberOfAttempts).toBe(2);
    expect(bodies.map((b) => b.numberOfAttempts)).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 2, 2]);
  });

  it('are sent with the order webhookCustomHeaders and never on creation', async () => {
    await newOrder('SEND');
    await sandbox.drainWebhooks();
    expect(receiver.received).toHaveLength(0);
    await sandbox.advance(sandbox.orders()[0]?.trackingNumber ?? '', { to: 20 });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.headers['x-shop-secret']).toBe('s3cret');
    expect(receiver.received[0]?.headers['content-type']).toBe('application/json');
  });

  it('carry the exception code asked for, and the return reasons on the way back', async () => {
    const tn = await newOrder('SEND');
    for (const to of [20, 21, 24, 41]) await sandbox.advance(tn, { to });
    await sandbox.advance(tn, { to: 47, exceptionCode: 3 });
    expect(receiver.received.at(-1)?.body).toMatchObject({ state: 47, exceptionCode: 3, exceptionReason: 'Postponed, customer requested another day' });
    await sandbox.advance(tn, { to: 24 });
    await sandbox.advance(tn, { to: 24 });
    expect(sandbox.order(tn).webhookType).toBe('RTO');
    await sandbox.advance(tn, { to: 41 });
    await expect(sandbox.advance(tn, { to: 47, exceptionCode: 1 })).rejects.toThrow(/return exception/);
    await sandbox.advance(tn, { to: 47 });
    expect(receiver.received.at(-1)?.body).toMatchObject({
      state: 47,
      type: 'RTO',
      exceptionCode: 23,
      exceptionReason: 'Business is not answering',
      numberOfAttempts: 1,
    });
  });
});

describe('timeStamps', () => {
  const stamps = (tn: string) => sandbox.order(tn).history.map((event) => event.timeStamp);

  it('strictly increase per order under a clock that stands still: each change is the previous one + 1 ms', async () => {
    const tn = await newOrder('SEND');
    await sandbox.play(tn, 'exceptionThenSuccess');
    const expected = Array.from({ length: 11 }, (_, i) => NOW + i);
    expect(stamps(tn)).toEqual(expected);
    // The webhooks carry the same times, so a receiver can order them.
    expect(receiver.received.map((r) => r.body.timeStamp)).toEqual(expected.slice(1));
  });

  it('strictly increase per order with the default clock, for every scenario played within one millisecond or more', async () => {
    const { sandbox: live } = await sandboxWithAccount();
    try {
      for (const [kind, scenario] of [
        ['SEND', 'unsuccessful'],
        ['CASH_COLLECTION', 'threeFailedAttempts'],
        ['EXCHANGE', 'success'],
      ] as const) {
        const answer = await createOrder(live, { ...ORDERS[kind], businessReference: `live-${kind}` });
        const tn: string = answer.body.data.trackingNumber;
        await live.play(tn, scenario);
        const times = live.order(tn).history.map((event) => event.timeStamp);
        expect(times.length).toBeGreaterThan(4);
        for (let i = 1; i < times.length; i += 1) expect(times[i]).toBeGreaterThan(times[i - 1] as number);
      }
    } finally {
      await live.close();
    }
  });

  it('follow a clock that moves on by itself as it is, and never go back when it does', async () => {
    let clock = NOW;
    const { sandbox: ticking } = await sandboxWithAccount({ now: () => clock });
    try {
      const answer = await createOrder(ticking, { ...ORDERS['SEND'], businessReference: 'ticking' });
      const tn: string = answer.body.data.trackingNumber;
      clock = NOW + 60_000;
      await ticking.advance(tn, { to: 20 });
      clock = NOW + 30_000; // set back, as a test clock may be
      await ticking.advance(tn, { to: 21 });
      expect(ticking.order(tn).history.map((event) => event.timeStamp)).toEqual([NOW, NOW + 60_000, NOW + 60_001]);
    } finally {
      await ticking.close();
    }
  });

  it('are kept per order: another order at the same moment starts from the clock', async () => {
    const first = await newOrder('SEND');
    await sandbox.play(first, 'success');
    const second = await newOrder('CASH_COLLECTION');
    await sandbox.advance(second, { to: 20 });
    expect(stamps(second)).toEqual([NOW, NOW + 1]);
  });
});

describe('the state engine refuses what the flow does not allow', () => {
  it('names from and to, and what is allowed', async () => {
    const tn = await newOrder('SEND');
    const error = await sandbox.advance(tn, { to: 45 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({ from: 10, to: 45, allowed: expect.arrayContaining([20]) });
    expect((error as Error).message).toMatch(/from 10 \(Pickup requested\) to 45 \(Delivered\)/);
    expect(sandbox.order(tn).state).toBe(10);
    expect(receiver.received).toHaveLength(0);
  });

  it('never lets a final state move on, except to Archived', async () => {
    const tn = await newOrder('CASH_COLLECTION');
    await sandbox.play(tn, 'success');
    expect(sandbox.nextStates(tn)).toEqual([]);
    const send = await newOrder('SEND');
    await sandbox.play(send, 'success');
    expect(sandbox.nextStates(send)).toEqual([104]);
    await expect(sandbox.advance(send, { to: 20 })).rejects.toThrow(SandboxError);
  });

  it('reaches 48 only automatically, after the third failed attempt', async () => {
    const tn = await newOrder('CRP');
    for (const to of [20, 22]) await sandbox.advance(tn, { to });
    await expect(sandbox.advance(tn, { to: 48 })).rejects.toThrow(SandboxError);
    const events = [];
    for (let i = 0; i < 3; i += 1) {
      events.push(...(await sandbox.advance(tn, { to: 47 })));
      if (i < 2) await sandbox.advance(tn, { to: 22 });
    }
    expect(events.map((e) => e.state)).toEqual([47, 47, 47, 48]);
    expect(receiver.received.at(-1)?.body).toMatchObject({ state: 48, numberOfAttempts: 3 });
  });

  it('pauses on hold and resumes where it was', async () => {
    const tn = await newOrder('SEND');
    await sandbox.advance(tn, { to: 20 });
    await sandbox.advance(tn, { to: 105 });
    expect(sandbox.nextStates(tn)).toContain(20);
    await sandbox.advance(tn, { to: 20 });
    await sandbox.advance(tn, { to: 21 });
    expect(sandbox.order(tn).state).toBe(21);
  });

  it('play() resumes from any state the scenario can reach its end from, however the order got there', async () => {
    const tn = await newOrder('SEND');
    for (const to of [20, 21, 24, 41, 47]) await sandbox.advance(tn, { to }); // 30 skipped
    const played = await sandbox.play(tn, 'exceptionThenSuccess');
    expect(played.map((event) => event.state)).toEqual([24, 41, 45]);
    expect(sandbox.order(tn).state).toBe(45);
  });

  it('play() resumes a paused order first, and keeps the failed attempts so the automatic end comes on time', async () => {
    const paused = await newOrder('SEND');
    for (const to of [20, 105]) await sandbox.advance(paused, { to });
    expect((await sandbox.play(paused, 'success')).map((event) => event.state)).toEqual([20, 21, 24, 30, 24, 41, 45]);
    const cash = await newOrder('CASH_COLLECTION');
    for (const to of [20, 40, 47]) await sandbox.advance(cash, { to });
    expect((await sandbox.play(cash, 'threeFailedAttempts')).map((event) => event.state)).toEqual([40, 47, 40, 47, 48]);
  });

  it('refuses a scenario once the order left it, and unknown orders', async () => {
    const tn = await newOrder('SEND');
    await sandbox.advance(tn, { to: 49 });
    await expect(sandbox.play(tn, 'success')).rejects.toThrow(/left the 'success' scenario/);
    const fxf = await newOrder('FXF_SEND');
    await expect(sandbox.play(fxf, 'threeFailedAttempts')).rejects.toThrow(/does not apply/);
    await expect(sandbox.advance('123', { to: 20 })).rejects.toThrow(/No order/);
  });
});

describe('final states agree with every path the sandbox plays', () => {
  /** Follows the first state the sandbox offers until a final one; fails on a state with none to offer. */
  async function walkToFinal(tn: string): Promise<number[]> {
    const walked: number[] = [];
    for (let step = 0; step < 40; step++) {
      const { state } = sandbox.order(tn);
      walked.push(state);
      if (isFinalState(state)) return walked;
      const [next] = sandbox.nextStates(tn);
      if (next === undefined) throw new Error(`${tn} rests in ${state}, which is not final, with nothing to follow: ${walked.join(' ')}`);
      await sandbox.advance(tn, { to: next });
    }
    throw new Error(`${tn} never reached a final state: ${walked.join(' ')}`);
  }

  // The fulfillment send flows are the spec's three; the others have all four scenarios.
  const paths = Object.keys(ORDERS).flatMap((kind) =>
    SCENARIOS.filter((scenario) => kind !== 'FXF_SEND' || scenario !== 'threeFailedAttempts').map((scenario) => [kind, scenario] as const),
  );
  it.each(paths)('%s %s ends in a final state, or in one from which a final state is reached', async (kind, scenario) => {
    const tn = await newOrder(kind);
    await sandbox.play(tn, scenario);
    const walked = await walkToFinal(tn);
    expect(isFinalState(walked.at(-1) ?? 0)).toBe(true);
  });

  it.each(Object.keys(ORDERS))('a %s order canceled (49) is terminated (48) at once, with both webhooks', async (kind) => {
    const tn = await newOrder(kind);
    const events = await sandbox.advance(tn, { to: 49 });
    expect(events.map((event) => event.state)).toEqual([49, 48]);
    expect(isFinalState(sandbox.order(tn).state)).toBe(true);
  });

  it('three failed attempts to collect money end in 48, with its webhook; to return to the business in 103, which the business settles', async () => {
    const cash = await newOrder('CASH_COLLECTION');
    await sandbox.play(cash, 'unsuccessful');
    expect(sandbox.order(cash).state).toBe(48);
    const send = await newOrder('SEND');
    await sandbox.play(send, 'threeFailedAttempts');
    expect(sandbox.order(send).state).toBe(103);
    expect(sandbox.nextStates(send)).toEqual([46, 48]);
  });
});
