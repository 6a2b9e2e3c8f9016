// A tracing back end that fails never changes a call: what a client's `telemetry` throws is
// dropped, so a create the service made is answered with its order, sent once, and a bulk upload
// reports every order it created.
import { describe, expect, it } from 'vitest';
import { ConfigurationError, DeliveryClient, type DeliveryTelemetry, DeliveryType } from '../../src/index.js';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { dropOff, sandboxWithAccount } from '../support/sandbox.js';

const receiver = { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' };

/** Every method throws. */
const throwing = (): never => {
  throw new Error('the tracing back end is down');
};

/** A telemetry whose every method throws at once. */
const failsAtOnce = { call: throwing, bulk: throwing, webhook: throwing } as unknown as DeliveryTelemetry;

/** A telemetry that starts calls, attempts, uploads and chunks, then throws at every report. */
function failsLater(): DeliveryTelemetry {
  const reports = { attempt: () => reports, headers: throwing, end: throwing, chunk: () => reports };
  return { call: () => reports, bulk: () => reports, webhook: throwing } as unknown as DeliveryTelemetry;
}

describe.each([
  ['throws when a call starts', () => failsAtOnce],
  ['throws at every report after the request', failsLater],
])('a telemetry that %s', (_name, telemetry) => {
  it('leaves a create as it is: the order is answered and the service holds it once', async () => {
    const { sandbox, client } = await sandboxWithAccount({}, { telemetry: telemetry() });
    const order = await client.deliveries.create({ type: DeliveryType.Deliver, dropOffAddress: dropOff, receiver, cod: 250, businessReference: 'T-1' });
    expect(order.trackingNumber).toEqual(expect.any(String));
    expect(
      sandbox
        .orders()
        .filter((held) => held.businessReference === 'T-1')
        .map((held) => held.trackingNumber),
    ).toEqual([order.trackingNumber]);
  });

  it('leaves a bulk upload as it is: every created order is reported', async () => {
    const { sandbox, client } = await sandboxWithAccount({}, { telemetry: telemetry() });
    const orders = ['B-1', 'B-2', 'B-3'].map((businessReference) => ({
      type: DeliveryType.Deliver,
      dropOffAddress: dropOff,
      receiver,
      cod: 100,
      businessReference,
    }));
    const result = await client.deliveries.createBulk(orders, { chunkSize: 2 });
    expect(result.failed).toEqual([]);
    expect(result.createdIds).toHaveLength(3);
    expect(
      sandbox
        .orders()
        .map((held) => held.businessReference)
        .sort(),
    ).toEqual(['B-1', 'B-2', 'B-3']);
  });
});

describe('a telemetry that is not an object', () => {
  it.each([5, 'otel', null])('is a ConfigurationError naming the option: %s', (telemetry) => {
    expect(() => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', telemetry: telemetry as never })).toThrow(ConfigurationError);
    expect(() => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', telemetry: telemetry as never })).toThrow(/telemetry/);
    expect(() => createWebhookHandler({ telemetry: telemetry as never, onEvent() {} })).toThrow(ConfigurationError);
  });
});
