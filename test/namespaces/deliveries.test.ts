import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  BusinessLocationRequiredError,
  CodLimitExceededError,
  CodRequiredError,
  DeliveryType,
  FulfillmentType,
  type OrderInput,
  ResponseShapeError,
  ServerError,
  ValidationError,
} from '../../src/index.js';
import { capture, dropOffAddress, errorBody, HttpResponse, KEY, makeClient, ok, pickupAddress, receiver, useFakeService } from '../support/fake-service.js';

const server = useFakeService();

/** Answers like the service: the created order, with the type and cod echoed. */
const created = (sent: { json: unknown }, extra: Record<string, unknown> = {}) => {
  const order = sent.json as { type: unknown; cod?: number };
  return ok(
    {
      _id: 'order-1',
      trackingNumber: '7234258',
      type: order.type,
      state: { code: 10, value: 'Pickup requested' },
      cod: order.cod,
      createdAt: '2025-01-01T00:00:00.000Z',
      ...extra,
    },
    201,
  );
};

describe('deliveries.create: POST /deliveries?apiVersion=1', () => {
  it('sends the order with apiVersion=1 (and nothing else) in the query, the key and JSON headers', async () => {
    const sent = capture(server, 'post', '/deliveries', (s) => created(s));
    const order = { type: DeliveryType.Deliver, dropOffAddress, receiver, cod: 250, businessReference: 'ref-1' } as const;
    const result = await makeClient().deliveries.create(order);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/deliveries', search: '?apiVersion=1' });
    expect(sent[0]?.headers).toMatchObject({ authorization: KEY, 'content-type': 'application/json', accept: 'application/json' });
    expect(sent[0]?.json).toEqual(order);
    expect(result).toEqual({
      _id: 'order-1',
      trackingNumber: '7234258',
      type: 10,
      state: { code: 10, value: 'Pickup requested' },
      cod: 250,
      createdAt: '2025-01-01T00:00:00.000Z',
    });
  });

  it('sends the body the validator prepared: no undefined, packageType as written, unknown fields kept', async () => {
    const sent = capture(server, 'post', '/deliveries', (s) => created(s));
    const order = {
      type: DeliveryType.Deliver,
      dropOffAddress: { ...dropOffAddress, floor: undefined },
      receiver,
      notes: undefined,
      specs: { packageType: 'light_bulky' },
      flexShip: true,
    } as unknown as OrderInput;
    await makeClient().deliveries.create(order);
    expect(sent[0]?.json).toStrictEqual({ type: 10, dropOffAddress, receiver, specs: { packageType: 'light_bulky' }, flexShip: true });
    expect(sent[0]?.text).not.toMatch(/"floor"|"notes"|undefined/);
  });

  it('creates every numeric type, and the fulfillment types too', async () => {
    const sent = capture(server, 'post', '/deliveries', (s) => created(s));
    const orders: OrderInput[] = [
      { type: DeliveryType.Deliver, dropOffAddress },
      { type: DeliveryType.CashCollection, pickupAddress, cod: 500 },
      { type: DeliveryType.CustomerReturnPickup, pickupAddress, cod: -100 },
      { type: DeliveryType.Exchange, dropOffAddress, cod: 100 },
      { type: FulfillmentType.Send, dropOffAddress, fulfillmentInfo: { items: [{ sku: 'MUG', quantity: 1 }] } },
    ];
    const client = makeClient();
    for (const order of orders) expect((await client.deliveries.create(order)).type).toBe(order.type);
    expect(sent.map((s) => (s.json as { type: unknown }).type)).toEqual([10, 15, 25, 30, 'FXF_SEND']);
    expect(sent.every((s) => s.search === '?apiVersion=1')).toBe(true);
  });

  it('reads a numeric tracking number as a string and keeps unknown fields', async () => {
    capture(server, 'post', '/deliveries', (s) => created(s, { trackingNumber: 7234258, _id: 99, barcode: 'X1' }));
    const result = await makeClient().deliveries.create({ type: DeliveryType.Deliver, dropOffAddress });
    expect(result.trackingNumber).toBe('7234258');
    expect(result._id).toBe('99');
    expect(result['barcode']).toBe('X1');
  });

  it('a 2xx answer without trackingNumber is a ResponseShapeError saying the order may exist; not repeated', async () => {
    const sent = capture(server, 'post', '/deliveries', () => ok({ _id: 'order-1' }, 201));
    const error = await makeClient()
      .deliveries.create({ type: DeliveryType.Deliver, dropOffAddress })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error).toMatchObject({ status: 201 });
    expect((error as Error).message).toMatch(/POST .*\/deliveries\?apiVersion=1 answered 201 without trackingNumber \(it may exist/);
    expect(sent).toHaveLength(1);
  });

  it('refuses a broken rule before sending with its coded class (source client)', async () => {
    const sent = capture(server, 'post', '/deliveries', (s) => created(s));
    const client = makeClient();
    const tooMuch = await client.deliveries.create({ type: DeliveryType.Deliver, dropOffAddress, cod: 45_000 }).catch((e: unknown) => e);
    expect(tooMuch).toBeInstanceOf(CodLimitExceededError);
    expect(tooMuch).toMatchObject({ source: 'client', errorCode: 3007 });
    const noCod = await client.deliveries.create({ type: DeliveryType.CashCollection, pickupAddress } as unknown as OrderInput).catch((e: unknown) => e);
    expect(noCod).toBeInstanceOf(CodRequiredError);
    await expect(client.deliveries.create({ type: 99 } as unknown as OrderInput)).rejects.toBeInstanceOf(ValidationError);
    expect(sent).toHaveLength(0);
  });

  it('with validate: false sends as given, and the server answer maps to the same class (source server)', async () => {
    capture(server, 'post', '/deliveries', () => HttpResponse.json(errorBody(3007, 'COD must be at most 30000 EGP'), { status: 400 }));
    const error = await makeClient()
      .deliveries.create({ type: DeliveryType.Deliver, dropOffAddress, cod: 45_000 }, { validate: false })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodLimitExceededError);
    expect(error).toMatchObject({ source: 'server', status: 400 });
  });

  it('validate: false on the client sends every call unchecked; validate: true on one call checks that call', async () => {
    const sent = capture(server, 'post', '/deliveries', (s) => created(s));
    const client = makeClient({ validate: false });
    const tooMuch = { type: DeliveryType.Deliver, dropOffAddress, cod: 45_000, specs: { packageType: 'small' } } as unknown as OrderInput;
    await client.deliveries.create(tooMuch);
    expect(sent[0]?.json).toStrictEqual(tooMuch); // as given: not even packageType normalised
    await expect(client.deliveries.create(tooMuch, { validate: true })).rejects.toMatchObject({ source: 'client', errorCode: 3007 });
    expect(sent).toHaveLength(1);
  });

  it('no pickup location yet: BusinessLocationRequiredError (1073)', async () => {
    capture(server, 'post', '/deliveries', () => HttpResponse.json(errorBody(1073, 'A business location is needed before creating an order'), { status: 400 }));
    await expect(makeClient().deliveries.create({ type: DeliveryType.Deliver, dropOffAddress })).rejects.toBeInstanceOf(BusinessLocationRequiredError);
  });

  it('a 5xx is a ServerError and is never repeated (the order may exist)', async () => {
    const sent = capture(server, 'post', '/deliveries', () => HttpResponse.json(errorBody(undefined, 'boom'), { status: 500 }));
    await expect(makeClient().deliveries.create({ type: DeliveryType.Deliver, dropOffAddress })).rejects.toBeInstanceOf(ServerError);
    expect(sent).toHaveLength(1);
  });

  it('.withResponse() gives the status with the typed result', async () => {
    capture(server, 'post', '/deliveries', (s) => created(s));
    const { data, response } = await makeClient().deliveries.create({ type: DeliveryType.Deliver, dropOffAddress }).withResponse();
    expect(response.status).toBe(201);
    expect(data.trackingNumber).toBe('7234258');
  });
});

describe('the client and its namespaces', () => {
  it('exposes every namespace, none of which shows the key or the headers', () => {
    const client = makeClient();
    for (const name of ['lookup', 'users', 'businesses', 'deliveries', 'fulfillment'] as const) {
      const shown = inspect(client[name], { depth: 10, showHidden: true });
      expect(shown).not.toContain(KEY);
      expect(JSON.stringify(client[name])).not.toContain(KEY);
    }
    expect(inspect(client, { depth: 10 })).not.toContain(KEY);
  });
});
