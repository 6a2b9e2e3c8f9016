import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/testing/index.js';
import { call, dropOff, sandboxWithAccount } from '../support/sandbox.js';

let sandbox: Sandbox;
beforeEach(async () => {
  ({ sandbox } = await sandboxWithAccount());
});
afterEach(() => sandbox.close());

const order = (ref: string, extra: object = {}) => ({ type: 10, dropOffAddress: dropOff, cod: 100, businessReference: ref, ...extra });

describe("POST /deliveries/bulk, answered in the service's shape", () => {
  it('creates every order when all are valid (201): { createdDeliveriesIds, failedDeliveries: [] }', async () => {
    const answer = await call(sandbox, 'POST', '/deliveries/bulk?apiVersion=1', { deliveries: [order('a'), order('b')], deleteFailedDeliveries: false });
    expect(answer.status).toBe(201);
    expect(answer.body.data).toEqual({ createdDeliveriesIds: sandbox.orders().map((o) => o._id), failedDeliveries: [] });
    expect(answer.body.data.createdDeliveriesIds).toHaveLength(2);
  });

  it('answers 1061 on a partial failure, the valid ones ARE created; failures named by businessReference with errorMessage', async () => {
    const answer = await call(sandbox, 'POST', '/deliveries/bulk?apiVersion=1', {
      deliveries: [order('ok-1'), order('too-much', { cod: 40000 }), order('ok-2'), order('no-city', { dropOffAddress: { firstLine: 'Somewhere 12' } })],
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, errorCode: 1061 });
    expect(answer.body.data).toEqual({
      createdDeliveriesIds: sandbox.orders().map((o) => o._id),
      failedDeliveries: [
        { businessReference: 'too-much', errorMessage: expect.stringContaining('30000') },
        { businessReference: 'no-city', errorMessage: expect.any(String) },
      ],
    });
    expect(sandbox.orders().map((o) => o.businessReference)).toEqual(['ok-1', 'ok-2']);
  });

  it('a failed order without businessReference is listed with its errorMessage only', async () => {
    const { businessReference: _ref, ...anonymous } = order('x', { type: 77 });
    const answer = await call(sandbox, 'POST', '/deliveries/bulk?apiVersion=1', { deliveries: [anonymous] });
    expect(answer.body.data.failedDeliveries).toEqual([{ errorMessage: expect.any(String) }]);
  });

  it('needs apiVersion=1 and a deliveries array', async () => {
    expect((await call(sandbox, 'POST', '/deliveries/bulk', { deliveries: [order('a')] })).status).toBe(400);
    expect((await call(sandbox, 'POST', '/deliveries/bulk?apiVersion=1', [order('a')])).status).toBe(400);
  });
});

describe('POST /fulfillment/deliveries/bulky', () => {
  const fxf = (phone: string, items: object[], ref?: string) => ({
    type: 'FXF_SEND',
    dropOffAddress: dropOff,
    receiver: { firstName: 'C', lastName: 'D', phone },
    fulfillmentInfo: { items },
    ...(ref === undefined ? {} : { businessReference: ref }),
  });

  it('merges elements with the same receiver phone into one order with all items', async () => {
    const answer = await call(sandbox, 'POST', '/fulfillment/deliveries/bulky', [
      fxf('+201000000001', [{ sku: 'MUG', quantity: 1 }], 'first'),
      fxf('+201000000002', [{ sku: 'CAP', quantity: 1 }]),
      fxf('+201000000001', [
        { sku: 'MUG', quantity: 2 },
        { sku: 'TEE', quantity: 1 },
      ]),
    ]);
    expect(answer.status).toBe(201);
    expect(answer.body.data).toEqual([
      { _id: expect.any(String), trackingNumber: expect.any(String), receiverPhone: '+201000000001', mergedFrom: [0, 2] },
      { _id: expect.any(String), trackingNumber: expect.any(String), receiverPhone: '+201000000002', mergedFrom: [1] },
    ]);
    const orders = sandbox.orders();
    expect(orders).toHaveLength(2);
    expect(orders[0]?.request['fulfillmentInfo']).toEqual({
      items: [
        { sku: 'MUG', quantity: 3 },
        { sku: 'TEE', quantity: 1 },
      ],
    });
    expect(orders[0]?.businessReference).toBe('first');
    expect(orders[0]?.type).toBe('FXF_SEND');
  });

  it('rejects the whole upload when one element is invalid, naming its index', async () => {
    const answer = await call(sandbox, 'POST', '/fulfillment/deliveries/bulky', [
      fxf('+201000000001', [{ sku: 'MUG', quantity: 1 }]),
      { ...fxf('+201000000002', []), cod: 50000 },
    ]);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/^\[1\]/);
    expect(sandbox.orders()).toHaveLength(0);
  });

  it('needs a receiver phone to merge by', async () => {
    const { receiver: _r, ...noReceiver } = fxf('+20100', [{ sku: 'MUG', quantity: 1 }]);
    expect((await call(sandbox, 'POST', '/fulfillment/deliveries/bulky', [noReceiver])).body.message).toContain('receiver.phone');
  });
});
