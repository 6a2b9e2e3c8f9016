// The body sent is the body checked: every call that sends an input reads it once, into the JSON
// the request carries, checks that, and sends those bytes; a normalisation the rules promise
// (phone digits in ASCII) is in what is sent on every path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDelivery, DeliveryCore } from '../../src/functions/index.js';
import { CLIENT_RULE_CODES, CodLimitExceededError, DeliveryClient, DeliveryError, type OrderInput, ValidationError } from '../../src/index.js';
import { onWire } from '../../src/internal/input.js';
import { checkOrderOf } from '../../src/schemas/order.js';
import { validateOrder } from '../../src/validation.js';
import { breakers, mutated, type Order, validOrder, validOrderOf, written } from '../support/order-arbitraries.js';
import { validOrders } from '../support/orders.js';
import { runs, subsets } from '../support/sizes.js';

const BASE = 'https://api.delivery.test/v2';

/** A service that creates whatever it is sent, keeping each request's path and body text. */
function recordingService() {
  const sent: Array<{ path: string; body: string }> = [];
  const service = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push({ path: new URL(request.url).pathname.replace('/v2', ''), body: await request.text() });
    const { pathname } = new URL(request.url);
    const data = pathname.endsWith('/bulky')
      ? [{ _id: 'o1', trackingNumber: '1001' }]
      : pathname.endsWith('/bulk')
        ? { createdDeliveriesIds: ['o1'], failedDeliveries: [] }
        : { _id: 'o1', trackingNumber: '1001' };
    return Response.json({ success: true, message: 'Done', data });
  }) as typeof globalThis.fetch;
  const options = { baseUrl: BASE, apiKey: 'k', fetch: service, maxRetries: 0 };
  return { sent, core: new DeliveryCore(options), client: new DeliveryClient(options) };
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
const outcomeOf = (run: () => unknown): Outcome => {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error };
  }
};

/** What the SDK promises to send for `order` with `skip`: validateOrder's answer, or without public validator for skip, the schemas'. */
function promised(order: unknown, skip: readonly number[]): Outcome {
  if (skip.length === 0) return outcomeOf(() => validateOrder(order));
  const checked = onWire(order, (wire) => checkOrderOf('order', wire, new Set(skip)));
  return checked.ok ? checked : { ok: false, error: checked.error };
}

async function expectSentAsPromised(service: ReturnType<typeof recordingService>, order: unknown, skip: number[]): Promise<void> {
  service.sent.length = 0;
  const failure = await createDelivery(service.core, order as OrderInput, { validate: { skip: skip as never } }).then(
    () => undefined,
    (error: unknown) => error,
  );
  const expected = promised(order, skip);
  if (expected.ok) {
    expect(failure, String(failure)).toBeUndefined();
    // Equal bytes, not equal verdicts: the same text, keys in the same order.
    expect(service.sent.map(({ body }) => body)).toEqual([JSON.stringify(expected.value)]);
  } else {
    expect(failure).toBeInstanceOf(DeliveryError);
    expect((failure as Error).constructor).toBe((expected.error as Error).constructor);
    expect(service.sent).toEqual([]);
  }
}

const skipped = fc.subarray([...CLIENT_RULE_CODES]);
const EASTERN = '٠١٢٣٤٥٦٧٨٩';
const toEastern = (text: string): string => text.replace(/[0-9]/g, (digit) => EASTERN.charAt(Number(digit)));
/** A valid order whose receiver typed the phone in Arabic-Indic digits. */
const withEasternPhone = validOrder.map((order) => {
  const input = written(order);
  const receiver = input['receiver'] as { phone?: unknown } | undefined;
  return typeof receiver?.phone === 'string' ? { ...input, receiver: { ...receiver, phone: toEastern(receiver.phone) } } : input;
});

describe('what create sends is what validateOrder returns, byte for byte', () => {
  const service = recordingService();

  it('for generated orders, valid, mutated or with phones typed in Arabic-Indic digits, with any rules skipped', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(validOrder.map(written), mutated, withEasternPhone), skipped, (order, skip) => expectSentAsPromised(service, order, skip)),
      { numRuns: runs(600) },
    );
  });

  it('for an order broken by each breaker, with each of the 128 skip combinations (in npm run test:full; their 16 edges in npm test)', async () => {
    const combinations = subsets(CLIENT_RULE_CODES);
    for (const breaker of breakers) {
      const [order] = fc.sample(validOrderOf(breaker.types), { numRuns: 1, seed: 7 });
      const broken = structuredClone(written(order as Order));
      breaker.apply(broken, 7);
      for (const skip of combinations) await expectSentAsPromised(service, broken, skip);
    }
  });
});

describe('the input is read once, as JSON reads it', () => {
  it('a getter that answers differently on a second read: the first answer is checked and sent, once', async () => {
    const service = recordingService();
    let reads = 0;
    const order = Object.defineProperty({ ...validOrders.deliver() }, 'cod', {
      enumerable: true,
      get: () => (++reads === 1 ? 250 : 99_999),
    });
    await service.client.deliveries.create(order as OrderInput);
    expect(reads).toBe(1);
    expect(JSON.parse(service.sent[0]?.body ?? '{}')).toMatchObject({ cod: 250 });
  });

  it('an ORM object with toJSON: what toJSON gives is checked (and refused, cod 99999), nothing is sent', async () => {
    const service = recordingService();
    const record = { toJSON: () => ({ ...validOrders.deliver(), cod: 99_999 }), type: 10, cod: 10 };
    for (const create of [
      () => service.client.deliveries.create(record as never),
      () => createDelivery(service.core, record as never),
      () => service.client.deliveries.createBulk([record as never]),
    ]) {
      const error = await create().then(
        () => undefined,
        (e: unknown) => e,
      );
      // A single create throws the rule's class; a bulk upload lists it among the orders' issues.
      const codes = error instanceof CodLimitExceededError ? [3007] : error instanceof ValidationError ? error.issues.map((issue) => issue.errorCode) : [];
      expect(codes, String(error)).toContain(3007);
    }
    expect(service.sent).toEqual([]);
  });

  it('an ORM object with toJSON that passes: its JSON is the body', async () => {
    const service = recordingService();
    const order = validOrders.deliver();
    await service.client.deliveries.create({ toJSON: () => order } as never);
    expect(service.sent.map(({ body }) => body)).toEqual([JSON.stringify(order)]);
  });

  it('NaN and Infinity, which JSON would send as null ("no cod"), are refused naming the field', async () => {
    const service = recordingService();
    for (const cod of [Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = await service.client.deliveries.create({ ...validOrders.deliver(), cod } as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]?.path).toEqual(['cod']);
    }
    expect(service.sent).toEqual([]);
  });
});

describe('phones typed in Arabic-Indic or Persian digits are sent in ASCII, on every path', () => {
  const arabic = '٠١٠١٢٣٤٥٦٧٨';
  const persian = '۰۱۰۱۲۳۴۵۶۷۸';
  const ascii = '01012345678';
  const receiverOf = (phone: string) => ({ firstName: 'Mona', lastName: 'Adel', phone });
  const withPhone = <T extends Record<string, unknown>>(order: T, phone: string) => ({ ...order, receiver: receiverOf(phone) });

  it.each([arabic, persian])('%s', async (phone) => {
    const service = recordingService();
    const { client, core } = service;
    const fulfillmentReturn = withPhone(validOrders.fulfillmentReturn(), phone);
    await client.deliveries.create(withPhone(validOrders.deliver(), phone) as never);
    await createDelivery(core, withPhone(validOrders.cashCollection(), phone) as never);
    await client.deliveries.createBulk([withPhone(validOrders.deliver(), phone) as never]);
    for await (const _ of client.deliveries.streamBulk([withPhone(validOrders.exchange(), phone) as never])) {
      // each chunk's outcome; the body is what matters here
    }
    await client.fulfillment.create(withPhone(validOrders.fulfillmentSend(), phone) as never);
    await client.fulfillment.createReturn(fulfillmentReturn as never);
    await client.fulfillment.createBulky([withPhone(validOrders.fulfillmentSend(), phone) as never]);
    await client.deliveries.update('1001', { receiver: receiverOf(phone) });
    await client.pickups.create({
      businessLocationId: 'loc-1',
      scheduledDate: '2099-03-14',
      scheduledTimeSlot: '10:00 to 13:00',
      contactPerson: { name: 'Mona', phone },
    });
    await client.users.verifyPhone({ phone });
    expect(service.sent.map(({ path }) => path)).toEqual([
      '/deliveries',
      '/deliveries',
      '/deliveries/bulk',
      '/deliveries/bulk',
      '/deliveries',
      '/deliveries',
      '/fulfillment/deliveries/bulky',
      '/deliveries/business/1001',
      '/pickups',
      '/users/business-admin/phone/verify',
    ]);
    for (const { body } of service.sent) {
      expect(body).toContain(ascii);
      expect(body).not.toMatch(/[\u0660-\u0669\u06f0-\u06f9]/);
    }
  });

  it('with validate: false, the phone is sent as typed (nothing is converted)', async () => {
    const service = recordingService();
    await service.client.deliveries.create(withPhone(validOrders.deliver(), arabic) as never, { validate: false });
    expect(service.sent[0]?.body).toContain(arabic);
  });
});
