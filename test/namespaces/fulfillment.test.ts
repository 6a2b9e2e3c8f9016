import { describe, expect, it } from 'vitest';
import {
  ApiError,
  CrpRefundCodOnlyError,
  type FulfillmentSendOrder,
  FulfillmentType,
  previewBulkyMerge,
  ResponseShapeError,
  ValidationError,
} from '../../src/index.js';
import { capture, dropOffAddress, errorBody, HttpResponse, KEY, makeClient, ok, pickupAddress, receiver, useFakeService } from '../support/fake-service.js';

const server = useFakeService();

const items = [
  { sku: 'SHIRT-M', quantity: 2, name: 'Shirt' },
  { sku: 'MUG', quantity: 1 },
];
const send = (extra: Partial<FulfillmentSendOrder> = {}): FulfillmentSendOrder => ({
  type: FulfillmentType.Send,
  dropOffAddress,
  receiver,
  fulfillmentInfo: { items },
  ...extra,
});
const returnOrder = (returned = [{ sku: 'SHIRT-M', quantity: 1 }]) => ({
  type: FulfillmentType.CustomerReturnPickup,
  pickupAddress,
  receiver,
  originalFulfillmentTrackingNumber: '7234258',
  fulfillmentInfo: { items: returned },
});
const createdOrder = (sent: { json: unknown }) => ok({ _id: 'order-1', trackingNumber: '7234259', type: (sent.json as { type: string }).type }, 201);

describe('fulfillment.create: FXF_SEND through POST /deliveries?apiVersion=1', () => {
  it('sends the order with fulfillmentInfo and returns the created order', async () => {
    const sent = capture(server, 'post', '/deliveries', createdOrder);
    const created = await makeClient().fulfillment.create(send({ cod: 120 }));
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/deliveries', search: '?apiVersion=1' });
    expect(sent[0]?.headers['authorization']).toBe(KEY);
    expect(sent[0]?.json).toStrictEqual({ type: 'FXF_SEND', dropOffAddress, receiver, fulfillmentInfo: { items }, cod: 120 });
    expect(created).toMatchObject({ _id: 'order-1', trackingNumber: '7234259', type: 'FXF_SEND' });
  });

  it('refuses an order without items before sending', async () => {
    const sent = capture(server, 'post', '/deliveries', createdOrder);
    const error = await makeClient()
      .fulfillment.create(send({ fulfillmentInfo: { items: [] } }))
      .catch((e: unknown) => e);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['fulfillmentInfo', 'items']]);
    expect(sent).toHaveLength(0);
  });
});

describe('fulfillment.createReturn: CUSTOMER_RETURN_PICKUP', () => {
  it('sends the return with originalFulfillmentTrackingNumber; the original is a client-side check only', async () => {
    const sent = capture(server, 'post', '/deliveries', createdOrder);
    const created = await makeClient().fulfillment.createReturn({ ...returnOrder(), cod: -50 }, { original: { fulfillmentInfo: { items } } });
    expect(sent[0]?.search).toBe('?apiVersion=1');
    expect(sent[0]?.json).toStrictEqual({ ...returnOrder(), cod: -50 });
    expect(sent[0]?.text).not.toContain('original"');
    expect(created.type).toBe('CUSTOMER_RETURN_PICKUP');
  });

  it('refuses items that are not some or all of the original order, before sending', async () => {
    const sent = capture(server, 'post', '/deliveries', createdOrder);
    const fulfillment = makeClient().fulfillment;
    const error = await fulfillment
      .createReturn(
        returnOrder([
          { sku: 'SHIRT-M', quantity: 3 },
          { sku: 'HAT', quantity: 1 },
        ]),
        { original: items },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      { path: ['fulfillmentInfo', 'items', 0, 'quantity'], message: "returns 3 of 'SHIRT-M' in all, but the original order had 2" },
      { path: ['fulfillmentInfo', 'items', 1, 'sku'], message: "'HAT' is not an item of the original order" },
    ]);
    expect((error as Error).message).toMatch(/^Invalid fulfillment return: the items must be some or all of the original order's/);
    await expect(fulfillment.createReturn(returnOrder(), { original: { nope: true } as never })).rejects.toThrow(
      /original: expected the original order \(with fulfillmentInfo.items\) or its items, each an object, received an object/,
    );
    await expect(fulfillment.createReturn(returnOrder(), { original: [null] as never })).rejects.toThrow(ValidationError);
    await expect(fulfillment.createReturn(returnOrder(), { original: { fulfillmentInfo: { items: ['SHIRT-M'] } } as never })).rejects.toThrow(
      /original: .*each an object/,
    );
    expect(sent).toHaveLength(0);
  });

  it('without original, sends any items; a positive cod is refused with 3005', async () => {
    const sent = capture(server, 'post', '/deliveries', createdOrder);
    const fulfillment = makeClient().fulfillment;
    await fulfillment.createReturn(returnOrder([{ sku: 'ANY', quantity: 9 }]));
    await expect(fulfillment.createReturn({ ...returnOrder(), cod: 10 })).rejects.toBeInstanceOf(CrpRefundCodOnlyError);
    expect(sent).toHaveLength(1);
  });

  it('with validate: false skips the subset check and sends as given', async () => {
    const sent = capture(server, 'post', '/deliveries', createdOrder);
    await makeClient().fulfillment.createReturn(returnOrder([{ sku: 'HAT', quantity: 1 }]), { original: items, validate: false });
    expect(sent).toHaveLength(1);
  });
});

describe('fulfillment.createBulky: POST /fulfillment/deliveries/bulky', () => {
  it('sends the array itself, without apiVersion, and returns one order per customer', async () => {
    const sent = capture(server, 'post', '/fulfillment/deliveries/bulky', () =>
      ok(
        [
          { _id: 'o1', trackingNumber: 100, receiverPhone: receiver.phone, mergedFrom: [0, 2] },
          { _id: 'o2', trackingNumber: '101', receiverPhone: '+201099999999', mergedFrom: [1] },
        ],
        201,
      ),
    );
    const orders = [send(), send({ receiver: { phone: '+201099999999' } }), send({ fulfillmentInfo: { items: [{ sku: 'MUG', quantity: 2 }] } })];
    const created = await makeClient().fulfillment.createBulky(orders);
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/fulfillment/deliveries/bulky', search: '' });
    // Each phone in its one form: the service merges by what it receives.
    expect(sent[0]?.json).toStrictEqual([orders[0], send({ receiver: { phone: '01099999999' } }), orders[2]]);
    expect(created).toEqual([
      { _id: 'o1', trackingNumber: '100', receiverPhone: receiver.phone, mergedFrom: [0, 2] },
      { _id: 'o2', trackingNumber: '101', receiverPhone: '+201099999999', mergedFrom: [1] },
    ]);
  });

  it('checks every element first and lists all invalid ones by index; an empty list is refused', async () => {
    const sent = capture(server, 'post', '/fulfillment/deliveries/bulky', () => ok([]));
    const fulfillment = makeClient().fulfillment;
    const error = await fulfillment
      .createBulky([send(), send({ cod: 45_000 }), send({ fulfillmentInfo: { items: [{ sku: '', quantity: 1 }] } })])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([
      [1, 'cod'],
      [2, 'fulfillmentInfo', 'items', 0, 'sku'],
    ]);
    await expect(fulfillment.createBulky([])).rejects.toThrow(/needs at least one order/);
    expect(sent).toHaveLength(0);
  });

  it('takes only FXF_SEND elements: a Deliver or a fulfillment return is refused by index before sending', async () => {
    const sent = capture(server, 'post', '/fulfillment/deliveries/bulky', () => ok([]));
    const deliver = { type: 10, dropOffAddress, receiver };
    const error = await makeClient()
      .fulfillment.createBulky([send(), deliver, returnOrder()] as unknown as FulfillmentSendOrder[])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      { path: [1, 'type'], message: "expected 'FXF_SEND' in a bulky upload, received 10" },
      { path: [2, 'type'], message: "expected 'FXF_SEND' in a bulky upload, received 'CUSTOMER_RETURN_PICKUP'" },
    ]);
    expect((error as ValidationError).message).toMatch(/\[1\]\.type/);
    expect(sent).toHaveLength(0);
  });

  it('needs the customer phone of every element, since the service merges by it', async () => {
    const sent = capture(server, 'post', '/fulfillment/deliveries/bulky', () => ok([]));
    const { phone: _phone, ...withoutPhone } = receiver;
    const orders = [send(), send({ receiver: withoutPhone }), send({ receiver: { ...receiver, phone: '  ' } })];
    const error = await makeClient()
      .fulfillment.createBulky(orders)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([
      [1, 'receiver', 'phone'],
      [2, 'receiver', 'phone'],
    ]);
    expect((error as ValidationError).message).toMatch(/\[1\]\.receiver\.phone: required: bulky orders are merged by it/);
    expect(sent).toHaveLength(0);
  });

  it('an answer element without trackingNumber is a ResponseShapeError; a refused upload is the server error', async () => {
    let answer = ok([{ _id: 'o1' }], 201);
    capture(server, 'post', '/fulfillment/deliveries/bulky', () => answer);
    const fulfillment = makeClient().fulfillment;
    await expect(fulfillment.createBulky([send()])).rejects.toBeInstanceOf(ResponseShapeError);
    answer = HttpResponse.json(errorBody(undefined, '[0] receiver.phone is required'), { status: 400 });
    await expect(fulfillment.createBulky([send()])).rejects.toMatchObject({
      name: 'InvalidRequestError',
      source: 'server',
      issues: [{ path: [0, 'receiver', 'phone'] }],
    });
    answer = HttpResponse.json(errorBody(undefined, 'Upload refused'), { status: 400 });
    await expect(fulfillment.createBulky([send()])).rejects.toBeInstanceOf(ApiError);
  });
});

describe('previewBulkyMerge (pure)', () => {
  it('groups by receiver phone (in the one form the SDK sends), combines items per sku, keeps the first element and names differing fields', () => {
    const orders = [
      send({ cod: 100, businessReference: 'a' }),
      send({ receiver: { phone: '+201099999999' }, fulfillmentInfo: { items: [{ sku: 'CAP', quantity: 1 }] } }),
      send({
        receiver: { ...receiver, phone: ` ${receiver.phone} ` },
        cod: 100,
        businessReference: 'c',
        fulfillmentInfo: {
          items: [
            { sku: 'MUG', quantity: 2 },
            { sku: 'CAP', quantity: 1 },
          ],
        },
      }),
    ];
    const groups = previewBulkyMerge(orders);
    expect(groups.map((g) => [g.receiverPhone, g.mergedFrom])).toEqual([
      [receiver.phone, [0, 2]],
      ['01099999999', [1]],
    ]);
    // One customer however the phone was typed: the service merges what the SDK sends, one form.
    expect(previewBulkyMerge([send(), send({ receiver: { ...receiver, phone: '+20 10 1234 5678' } })]).map((g) => g.mergedFrom)).toEqual([[0, 1]]);
    expect(groups[0]?.order.fulfillmentInfo.items).toEqual([
      { sku: 'SHIRT-M', quantity: 2, name: 'Shirt' },
      { sku: 'MUG', quantity: 3 },
      { sku: 'CAP', quantity: 1 },
    ]);
    expect(groups[0]?.order.businessReference).toBe('a');
    expect(groups[0]?.differingFields.sort()).toEqual(['businessReference', 'receiver']);
    expect(groups[1]?.differingFields).toEqual([]);
    expect(orders[0]?.fulfillmentInfo.items).toEqual(items);
  });

  it('warns when merged orders would lose a cod', () => {
    const [group] = previewBulkyMerge([send({ cod: 100 }), send({ cod: 250 })]);
    expect(group?.differingFields).toEqual(['cod']);
    expect(group?.order.cod).toBe(100);
  });

  it('refuses elements without a receiver phone, by index', () => {
    const error = (() => {
      try {
        previewBulkyMerge([send(), send({ receiver: { firstName: 'X' } })]);
      } catch (e) {
        return e;
      }
    })();
    expect((error as ValidationError).issues).toEqual([{ path: [1, 'receiver', 'phone'], message: 'required: bulky orders are merged by it' }]);
  });
});
