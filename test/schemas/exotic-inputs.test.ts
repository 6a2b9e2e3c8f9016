// Every public function that takes user data answers with the SDK's typed errors only, even for
// objects no JSON parser makes: a getter on `type` that throws, a Proxy whose traps throw, a
// revoked Proxy. checkOrder is documented as never throwing: it returns them.
import { afterAll, describe, expect, it } from 'vitest';
import { DeliveryClient, DeliveryError } from '../../src/index.js';
import { createSandbox } from '../../src/testing/index.js';
import {
  checkOrder,
  validateAddress,
  validateDeliveryOrder,
  validateFulfillmentOrder,
  validateFulfillmentReturn,
  validateOrder,
  validatePickupLocations,
} from '../../src/validation.js';
import { parseWebhookEvent } from '../../src/webhooks/index.js';
import { validOrders } from '../support/orders.js';

const sandbox = createSandbox();
afterAll(() => sandbox.close());
let requests = 0;
const countingFetch = ((input: RequestInfo | URL, init?: RequestInit) => {
  requests++;
  return sandbox.fetch(input, init);
}) as typeof fetch;
const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, maxRetries: 0, fetch: countingFetch });

const boom = (): never => {
  throw new RangeError('trap');
};
const EVERY_TRAP: ProxyHandler<object> = {
  get: boom,
  has: boom,
  ownKeys: boom,
  getOwnPropertyDescriptor: boom,
  getPrototypeOf: boom,
  set: boom,
  defineProperty: boom,
  deleteProperty: boom,
};

/** Each exotic input, built fresh (a revoked proxy stays revoked), around a valid order of `build`. */
function exotics(build: () => Record<string, unknown>): Array<[string, () => unknown]> {
  return [
    ['a getter on type that throws', () => Object.defineProperty(build(), 'type', { enumerable: true, get: boom })],
    ['a getter on a nested field that throws', () => ({ ...build(), receiver: Object.defineProperty({}, 'phone', { enumerable: true, get: boom }) })],
    ['a Proxy whose every trap throws', () => new Proxy(build(), EVERY_TRAP)],
    ['a Proxy whose get trap throws after type', () => new Proxy(build(), { get: (target, key) => (key === 'type' ? target['type'] : boom()) })],
    [
      'a revoked Proxy',
      () => {
        const { proxy, revoke } = Proxy.revocable(build(), {});
        revoke();
        return proxy;
      },
    ],
    ['a revoked Proxy as a nested field', () => ({ ...build(), dropOffAddress: revoked() })],
  ];
}

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function expectTypedThrow(run: () => unknown): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(DeliveryError);
}

async function expectTypedRejection(run: () => Promise<unknown>): Promise<void> {
  let promise: Promise<unknown> | undefined;
  expect(() => {
    promise = run();
  }).not.toThrow();
  const error = await (promise as Promise<unknown>).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DeliveryError);
}

describe.each([
  ['a Deliver order', validOrders.deliver],
  ['a fulfillment order', validOrders.fulfillmentSend],
])('%s made exotic', (_, build) => {
  it.each(exotics(build))('%s: checkOrder returns a typed error and does not throw', (__, make) => {
    let result: ReturnType<typeof checkOrder> | undefined;
    expect(() => {
      result = checkOrder(make());
    }).not.toThrow();
    expect(result?.ok).toBe(false);
    if (result?.ok === false) expect(result.error).toBeInstanceOf(DeliveryError);
  });

  it.each(exotics(build))('%s: every validator throws a DeliveryError', (__, make) => {
    for (const validate of [
      validateOrder,
      validateDeliveryOrder,
      validateFulfillmentOrder,
      validateFulfillmentReturn,
      validateAddress,
      validatePickupLocations,
    ]) {
      expectTypedThrow(() => validate(make()));
    }
  });

  it.each(exotics(build))('%s: deliveries.create and createBulk reject with a DeliveryError and send nothing, validated or not', async (__, make) => {
    const before = requests;
    for (const validate of [true, false]) {
      await expectTypedRejection(() => client.deliveries.create(make() as never, { validate }));
      await expectTypedRejection(() => client.deliveries.createBulk([make()] as never, { validate }));
    }
    expect(requests).toBe(before);
  });
});

describe('exotic collections and bodies', () => {
  it('createBulk given a revoked Proxy, or a Proxy whose traps throw, as the list itself', async () => {
    for (const validate of [true, false]) {
      await expectTypedRejection(() => client.deliveries.createBulk(revoked() as never, { validate }));
      await expectTypedRejection(() => client.deliveries.createBulk(new Proxy([validOrders.deliver()], EVERY_TRAP) as never, { validate }));
    }
  });

  it('parseWebhookEvent given a revoked Proxy, a Proxy whose traps throw, or a throwing getter', () => {
    const body = { _id: 'a1', trackingNumber: 7, state: 24 };
    expectTypedThrow(() => parseWebhookEvent(revoked()));
    expectTypedThrow(() => parseWebhookEvent(new Proxy(body, EVERY_TRAP)));
    expectTypedThrow(() => parseWebhookEvent(Object.defineProperty({ ...body }, 'state', { enumerable: true, get: boom })));
    expectTypedThrow(() => parseWebhookEvent(Object.defineProperty({ ...body }, 'deliveryPromiseDate', { enumerable: true, get: boom })));
  });
});
