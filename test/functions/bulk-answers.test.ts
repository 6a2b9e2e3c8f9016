import { describe, expect, it } from 'vitest';
import {
  ApiError,
  BulkCreationError,
  CityNotFoundError,
  CodLimitExceededError,
  ConfigurationError,
  DeliveryType,
  DistrictNotFoundError,
  ErrorCode,
  isDeliveryError,
  type OrderInput,
  ResponseShapeError,
} from '../../src/index.js';
import { allCreated, idsOnly, partialFailure2xx, partialFailure1061 } from '../fixtures/real/answers/bulk.js';
import { bulkFailure, capture, dropOffAddress, errorBody, HttpResponse, makeClient, ok, type Sent, useFakeService } from '../support/fake-service.js';

const server = useFakeService();

const order = (businessReference?: string): OrderInput => ({
  type: DeliveryType.Deliver,
  dropOffAddress,
  cod: 100,
  ...(businessReference === undefined ? {} : { businessReference }),
});
const references = (sent: Sent) => (sent.json as { deliveries: Array<{ businessReference?: string }> }).deliveries.map((d) => d.businessReference);
const answer =
  (body: object, status = 200) =>
  () =>
    HttpResponse.json(body as Record<string, unknown>, { status });

describe('createBulk reads the answer real integrations read: { createdDeliveriesIds, failedDeliveries }', () => {
  it('a full success resolves: no BulkCreationError, every order created, every id kept', async () => {
    capture(server, 'post', '/deliveries/bulk', answer(allCreated));
    const result = await makeClient().deliveries.createBulk([order('WC-1'), order('WC-2'), order('WC-3')]);
    expect(result.failed).toEqual([]);
    expect(result.created).toEqual([
      { index: 0, businessReference: 'WC-1' },
      { index: 1, businessReference: 'WC-2' },
      { index: 2, businessReference: 'WC-3' },
    ]);
    // The answer does not say which id is whose: none is guessed, none is lost.
    expect(result.createdIds).toEqual(allCreated.data.createdDeliveriesIds);
  });

  it('matches a failure to its order by businessReference, with the service errorMessage; the others are created', async () => {
    capture(server, 'post', '/deliveries/bulk', answer(partialFailure2xx));
    const error = await bulkFailure(makeClient().deliveries.createBulk([order('WC-1'), order('WC-2'), order('WC-3')]));
    expect(error.created.map((c) => c.index)).toEqual([0, 2]);
    expect(error.failed.map((f) => [f.index, f.mayExist])).toEqual([[1, false]]);
    expect(error.failed[0]?.error).toBeInstanceOf(ApiError);
    expect(error.failed[0]?.error.message).toBe('Receiver phone number is invalid');
    expect(error.result.createdIds).toEqual(partialFailure2xx.data.createdDeliveriesIds);
    expect(error.message).toBe('Bulk creation incomplete: 1 of 3 orders failed, 2 created: [1]: Receiver phone number is invalid');
  });

  it('reads the same answer from a 1061 error body', async () => {
    capture(server, 'post', '/deliveries/bulk', answer(partialFailure1061, 400));
    const error = await bulkFailure(makeClient().deliveries.createBulk([order('WC-1'), order('WC-2'), order('WC-3')]));
    expect(error.created.map((c) => c.index)).toEqual([0, 2]);
    expect(error.failed.map((f) => [f.index, f.mayExist, f.error.message])).toEqual([[1, false, 'Receiver phone number is invalid']]);
    expect(error.failed[0]?.error).toMatchObject({ status: 400 });
    expect(error.result.createdIds).toHaveLength(2);
  });

  it('reads `data` as the list of ids itself (the plugin falls back to it)', async () => {
    capture(server, 'post', '/deliveries/bulk', answer(idsOnly));
    const result = await makeClient().deliveries.createBulk([order('A'), order('B')]);
    expect(result.created.map((c) => c.index)).toEqual([0, 1]);
    expect(result.createdIds).toEqual(idsOnly.data);
  });

  it('ties the id to the order when a request created exactly one (one order per request, as merchant backends send)', async () => {
    let next = 0;
    capture(server, 'post', '/deliveries/bulk', () => ok({ createdDeliveriesIds: [`id-${next++}`], failedDeliveries: [] }));
    const result = await makeClient().deliveries.createBulk([order('A'), order('B')], { chunkSize: 1, concurrency: 1 });
    expect(result.created).toEqual([
      { index: 0, _id: 'id-0', businessReference: 'A' },
      { index: 1, _id: 'id-1', businessReference: 'B' },
    ]);
  });
});

describe('createBulk: an answer that cannot be matched says so (mayExist) and keeps the service message', () => {
  it('a failure without businessReference: every order it could be is mayExist, with the message', async () => {
    capture(server, 'post', '/deliveries/bulk', () =>
      ok({ createdDeliveriesIds: ['x1', 'x2'], failedDeliveries: [{ errorMessage: 'District is not covered' }] }),
    );
    const error = await bulkFailure(makeClient().deliveries.createBulk([order('A'), order('B'), order()]));
    expect(error.created).toEqual([]);
    expect(error.failed.map((f) => [f.index, f.mayExist])).toEqual([
      [0, true],
      [1, true],
      [2, true],
    ]);
    expect(error.failed[0]?.error).toBeInstanceOf(ResponseShapeError);
    expect(error.failed[0]?.error.message).toMatch(/District is not covered/);
    expect(error.result.createdIds).toEqual(['x1', 'x2']);
    // One reason, said once.
    expect(error.message.match(/District is not covered/g)).toHaveLength(1);
  });

  it('a reference sent twice, one of them failed: those two are mayExist, the order no failure names is created', async () => {
    capture(server, 'post', '/deliveries/bulk', () =>
      ok({ createdDeliveriesIds: ['x1', 'x2'], failedDeliveries: [{ businessReference: 'A', errorMessage: 'Invalid COD' }] }),
    );
    const error = await bulkFailure(makeClient().deliveries.createBulk([order('A'), order('B'), order('A')], { validate: false }));
    expect(error.created.map((c) => [c.index, c.businessReference])).toEqual([[1, 'B']]);
    expect(error.failed.map((f) => [f.index, f.mayExist])).toEqual([
      [0, true],
      [2, true],
    ]);
    expect(error.failed[0]?.error.message).toMatch(/unclear about this order: 'A' was sent 2 times and failed 1: Invalid COD$/);
  });

  it('both orders of a repeated reference failed: both failed for sure', async () => {
    capture(server, 'post', '/deliveries/bulk', () =>
      ok({
        createdDeliveriesIds: ['x1'],
        failedDeliveries: [
          { businessReference: 'A', errorMessage: 'Invalid COD' },
          { businessReference: 'A', errorMessage: 'Invalid COD' },
        ],
      }),
    );
    const error = await bulkFailure(makeClient().deliveries.createBulk([order('A'), order('B'), order('A')], { validate: false }));
    expect(error.created.map((c) => [c.index, c._id])).toEqual([[1, 'x1']]);
    expect(error.failed.map((f) => [f.index, f.mayExist, f.error.message])).toEqual([
      [0, false, 'Invalid COD'],
      [2, false, 'Invalid COD'],
    ]);
  });

  it('counts that do not add up: no order is called created or failed for sure', async () => {
    capture(server, 'post', '/deliveries/bulk', () => ok({ createdDeliveriesIds: ['x1'], failedDeliveries: [] }));
    const error = await bulkFailure(makeClient().deliveries.createBulk([order('A'), order('B'), order('C')]));
    expect(error.created).toEqual([]);
    expect(error.failed.every((f) => f.mayExist)).toBe(true);
    expect(error.failed[0]?.error.message).toMatch(/unclear about this order: 3 sent, 1 created, 0 failed$/);
    expect(error.result.createdIds).toEqual(['x1']);
  });

  it('a failure naming a reference the request does not hold: the others are mayExist, the message kept', async () => {
    capture(server, 'post', '/deliveries/bulk', () =>
      ok({ createdDeliveriesIds: ['x1'], failedDeliveries: [{ businessReference: 'Z', errorMessage: 'Duplicate order' }] }),
    );
    const error = await bulkFailure(makeClient().deliveries.createBulk([order('A'), order('B')]));
    expect(error.failed.map((f) => [f.index, f.mayExist])).toEqual([
      [0, true],
      [1, true],
    ]);
    expect(error.failed[1]?.error.message).toMatch(/Duplicate order/);
  });
});

describe('createBulk: deleteFailedDeliveries and the message', () => {
  it('sends deleteFailedDeliveries as asked, and refuses anything but a boolean before sending', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', answer(idsOnly));
    await makeClient().deliveries.createBulk([order('A'), order('B')], { deleteFailedDeliveries: true });
    expect(sent[0]?.json).toMatchObject({ deleteFailedDeliveries: true });
    expect(references(sent[0] as Sent)).toEqual(['A', 'B']);
    await expect(makeClient().deliveries.createBulk([order('A')], { deleteFailedDeliveries: 'yes' as unknown as boolean })).rejects.toBeInstanceOf(
      ConfigurationError,
    );
    expect(sent).toHaveLength(1);
  });

  it('says one reason once for every order it concerns, and counts the orders never sent', async () => {
    capture(server, 'post', '/deliveries/bulk', () =>
      HttpResponse.json(errorBody(1073, 'A business location is needed before creating an order'), { status: 400 }),
    );
    const orders = Array.from({ length: 250 }, (_, i) => order(`R-${i}`));
    const error = await bulkFailure(makeClient().deliveries.createBulk(orders, { chunkSize: 100, concurrency: 1 }));
    expect(error.message).toBe(
      'Bulk creation incomplete: 100 of 250 orders failed, 0 created, 150 not sent (stopped before index 100): [0-99] (100 orders): A business location is needed before creating an order',
    );
  });

  it('groups the service messages of the real answer', async () => {
    const failedDeliveries = Array.from({ length: 40 }, (_, i) => ({
      businessReference: `R-${i * 2}`,
      errorMessage: i % 2 === 0 ? 'Receiver phone number is invalid' : 'District is not covered',
    }));
    capture(server, 'post', '/deliveries/bulk', () => ok({ createdDeliveriesIds: Array.from({ length: 40 }, (_, i) => `id-${i}`), failedDeliveries }));
    const error = await bulkFailure(makeClient().deliveries.createBulk(Array.from({ length: 80 }, (_, i) => order(`R-${i}`))));
    expect(error.failed).toHaveLength(40);
    expect(error.message).toMatch(
      /^Bulk creation incomplete: 40 of 80 orders failed, 40 created: \[0\], \[4\], \[8\], \[12\], \[16\] and 15 more runs \(20 orders\): Receiver phone number is invalid; \[2\], .* \(20 orders\): District is not covered$/,
    );
  });
});

describe('createBulk: per-order failures keep the class single orders get', () => {
  it('a failure whose text is one of the spec messages gets that code class, marked inferredFrom: message', async () => {
    const failedDeliveries = [
      { businessReference: 'A', errorMessage: 'District Not Found: district-nowhere' },
      { businessReference: 'B', errorMessage: 'city not found' },
      { businessReference: 'C', errorMessage: 'COD must be at most 30000 EGP' },
      { businessReference: 'D', errorMessage: 'Refund COD must be at most 30000 EGP.' },
      { businessReference: 'E', errorMessage: 'Product images are required when allowToOpenPackage is enabled' },
      { businessReference: 'F', errorMessage: 'District Not Foundation' }, // not the spec's text
    ];
    capture(server, 'post', '/deliveries/bulk', () => ok({ createdDeliveriesIds: [], failedDeliveries }));
    const error = await bulkFailure(makeClient().deliveries.createBulk(['A', 'B', 'C', 'D', 'E', 'F'].map(order)));
    const [district, city, cod, refund, images, other] = error.failed.map((failure) => failure.error);
    expect(district).toBeInstanceOf(DistrictNotFoundError);
    expect(district).toMatchObject({
      errorCode: 3003,
      source: 'server',
      inferredFrom: 'message',
      message: 'District Not Found: district-nowhere',
      status: 200,
    });
    expect(city).toBeInstanceOf(CityNotFoundError);
    expect(cod).toBeInstanceOf(CodLimitExceededError);
    expect(refund).toMatchObject({ errorCode: 3008, inferredFrom: 'message' });
    expect(images).toMatchObject({ errorCode: 2150, inferredFrom: 'message' });
    expect(other).toBeInstanceOf(ApiError);
    expect(other?.errorCode).toBeUndefined();
    expect(isDeliveryError(district, ErrorCode.DistrictNotFound)).toBe(true);
  });

  it('a code the service sends wins over the text, and is not marked inferred', async () => {
    const failedDeliveries = [
      { businessReference: 'A', errorCode: 3007, errorMessage: 'District Not Found' },
      { businessReference: 'B', errorCode: 4242, errorMessage: 'City Not Found' },
    ];
    capture(server, 'post', '/deliveries/bulk', () => ok({ createdDeliveriesIds: [], failedDeliveries }));
    const error = await bulkFailure(makeClient().deliveries.createBulk([order('A'), order('B')]));
    expect(error.failed[0]?.error).toBeInstanceOf(CodLimitExceededError);
    expect((error.failed[0]!.error as CodLimitExceededError).inferredFrom).toBeUndefined();
    expect(error.failed[1]?.error).toBeInstanceOf(ApiError);
    expect(error.failed[1]?.error).toMatchObject({ errorCode: 4242 });
  });
});

describe('createBulk: a non-2xx answer keeps the service code, message and body', () => {
  const body = {
    success: false,
    message: 'Some orders are invalid',
    errorCode: 777,
    data: { createdDeliveriesIds: ['x1'], failedDeliveries: [{ businessReference: 'B', errorMessage: 'Receiver is blocked' }] },
  };

  it('on the BulkCreationError (serviceErrors, status, body, cause) and on each failure (errorCode, cause)', async () => {
    capture(server, 'post', '/deliveries/bulk', answer(body, 400));
    const error = await bulkFailure(makeClient().deliveries.createBulk([order('A'), order('B')]));
    expect(error.errorCode).toBe(1061);
    expect(error.status).toBe(400);
    expect(error.body).toEqual(body);
    expect(error.serviceErrors).toHaveLength(1);
    expect(error.serviceErrors[0]).toMatchObject({ errorCode: 777, message: expect.stringContaining('Some orders are invalid'), status: 400, body });
    expect(error.cause).toBe(error.serviceErrors[0]);
    expect(error.created.map((created) => created.index)).toEqual([0]);
    const failure = error.failed[0]?.error as ApiError;
    expect(failure).toMatchObject({ errorCode: 777, message: 'Receiver is blocked', status: 400 });
    expect(failure.cause).toBe(error.serviceErrors[0]);
    expect(JSON.stringify(error)).not.toContain('serviceErrors'); // kept out of logs, as `result` is
  });

  it('a failure whose text is a spec message takes that code even inside a 777 answer; a 1061 answer lends its code to none', async () => {
    capture(
      server,
      'post',
      '/deliveries/bulk',
      answer({ ...body, data: { failedDeliveries: [{ businessReference: 'A', errorMessage: 'Zone Not Found' }] } }, 400),
    );
    const inferred = await bulkFailure(makeClient().deliveries.createBulk([order('A')]));
    expect(inferred.failed[0]?.error).toMatchObject({ errorCode: 3002, inferredFrom: 'message' });
    capture(server, 'post', '/deliveries/bulk', answer({ ...body, errorCode: 1061 }, 400));
    const bulk = await bulkFailure(makeClient().deliveries.createBulk([order('A'), order('B')]));
    expect(bulk.failed[0]?.error).toBeInstanceOf(ApiError);
    expect(bulk.failed[0]?.error.errorCode).toBeUndefined();
    expect(bulk.serviceErrors[0]).toBeInstanceOf(BulkCreationError);
  });
});
