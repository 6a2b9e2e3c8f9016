import { describe, expect, it } from 'vitest';
import { createDelivery, DeliveryCore } from '../../src/functions/index.js';
import { ConfigurationError, ValidationError } from '../../src/index.js';
import { BASE, capture, dropOffAddress, KEY, ok, receiver, useFakeService } from '../support/fake-service.js';

const server = useFakeService();
const created = { _id: 'd1', trackingNumber: '7000001', state: { code: 10, value: 'Pickup requested' } };

describe('delivery-sdk/functions: createDelivery over a DeliveryCore', () => {
  it('sends POST /deliveries?apiVersion=1 with the key and resolves the created order, as client.deliveries.create does', async () => {
    const sent = capture(server, 'post', '/deliveries', () => ok(created, 201));
    const core = new DeliveryCore({ apiKey: KEY, baseUrl: BASE });
    const order = await createDelivery(core, { type: 10, dropOffAddress, receiver, cod: 250 });
    expect(order).toMatchObject({ _id: 'd1', trackingNumber: '7000001' });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/deliveries', search: '?apiVersion=1', json: { type: 10, cod: 250 } });
    expect(sent[0]?.headers['authorization']).toBe(KEY);
  });

  it('checks the order before sending: an invalid one rejects with a ValidationError and nothing is sent', async () => {
    const sent = capture(server, 'post', '/deliveries', () => ok(created, 201));
    const core = new DeliveryCore({ apiKey: KEY, baseUrl: BASE });
    // @ts-expect-error Deliver needs a dropOffAddress
    await expect(createDelivery(core, { type: 10, receiver })).rejects.toBeInstanceOf(ValidationError);
    expect(sent).toHaveLength(0);
  });

  it('a first argument that is not a DeliveryCore rejects with a ConfigurationError, not a TypeError', async () => {
    // @ts-expect-error a JavaScript caller's mistake
    await expect(createDelivery(undefined, { type: 10, dropOffAddress, receiver })).rejects.toBeInstanceOf(ConfigurationError);
  });

  it('util.inspect and JSON of a core never show the key', async () => {
    const { inspect } = await import('node:util');
    const core = new DeliveryCore({ apiKey: KEY, baseUrl: BASE });
    expect(inspect(core, { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify(core)).not.toContain(KEY);
  });
});
