// Every refusal typed (issue 40, point 9): a field the service refuses is a ValidationError with
// source 'server' and its issues (an InvalidRequestError, carrying the answer), whether the
// service's validator lists the fields, 777 names them in `data`, or its text names the field.
// Against the sandbox (sent unchecked, `validate: false`) and an independent node:http service.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, BulkCreationError, DeliveryClient, InvalidRequestError, ValidationError } from '../../src/index.js';
import { startFakeService } from '../support/fake-service.js';
import { dropOff, sandboxWithAccount } from '../support/sandbox.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const order = (phone: string) => ({ type: 10 as const, dropOffAddress: dropOff, receiver: { firstName: 'Mona', lastName: 'Adel', phone }, cod: 100 });

describe('the sandbox refusing a phone sent unchecked', () => {
  it('is a ValidationError from the server naming receiver.phone, with the status of the answer', async () => {
    const { sandbox, client } = await sandboxWithAccount();
    closers.push(() => sandbox.close());
    const error = await client.deliveries.create(order('call me'), { validate: false }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ source: 'server', status: 400, mayExist: false });
    expect((error as ValidationError).issues).toEqual([{ path: ['receiver', 'phone'], message: expect.stringContaining('receiver.phone must be') }]);
    expect(sandbox.orders()).toEqual([]);
  });

  it('the client-side check of the same phone is the same class family, source client', async () => {
    const { sandbox, client } = await sandboxWithAccount();
    closers.push(() => sandbox.close());
    const error = await client.deliveries.create(order('call me')).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ source: 'client', issues: [{ path: ['receiver', 'phone'] }] });
  });
});

describe('refusals from an independent node:http service', () => {
  async function answering(status: number, json: unknown): Promise<DeliveryClient> {
    const fake = await startFakeService();
    closers.push(fake.close);
    fake.on('POST /deliveries', () => ({ status, json }));
    fake.on('POST /deliveries/bulk', () => ({ status, json }));
    return new DeliveryClient({ baseUrl: fake.baseUrl, apiKey: 'k', maxRetries: 0 });
  }

  it.each([
    [
      'a 422 whose message names the field',
      422,
      { success: false, message: 'receiver.phone is not a valid mobile number' },
      [['receiver', 'phone']],
      undefined,
    ],
    ['a 400 quoting the field', 400, { success: false, message: '"dropOffAddress.districtId" is required' }, [['dropOffAddress', 'districtId']], undefined],
    [
      '777 with the fields in data',
      400,
      { success: false, message: 'Validation error', errorCode: 777, data: [{ field: 'receiver.phone', message: 'invalid phone' }] },
      [['receiver', 'phone']],
      777,
    ],
    ['the validator array', 400, [{ message: '"cod" must be a number', path: ['cod'], type: 'number.base' }], [['cod']], undefined],
  ])('%s is an InvalidRequestError with its issues', async (_, status, json, paths, errorCode) => {
    const client = await answering(status, json);
    const error = (await client.deliveries.create(order('01012345678')).catch((err: unknown) => err)) as InvalidRequestError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ source: 'server', status, errorCode, mayExist: false });
    expect(error.issues.map((issue) => issue.path)).toEqual(paths);
    expect(error.body).toEqual(json);
  });

  it('a refusal in a sentence that names no field stays an ApiError', async () => {
    const client = await answering(400, { success: false, message: 'Receiver is blocked' });
    const error = await client.deliveries.create(order('01012345678')).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(ValidationError);
  });

  it("a bulk order refused for a field is failed with that field's InvalidRequestError", async () => {
    const fake = await startFakeService();
    closers.push(fake.close);
    fake.on('POST /deliveries/bulk', () => ({
      json: {
        success: true,
        data: { createdDeliveriesIds: ['id-1'], failedDeliveries: [{ businessReference: 'B-2', errorMessage: 'receiver.phone must be 11 digits' }] },
      },
    }));
    const client = new DeliveryClient({ baseUrl: fake.baseUrl, apiKey: 'k', maxRetries: 0 });
    const error = (await client.deliveries
      .createBulk([
        { ...order('01012345678'), businessReference: 'B-1' },
        { ...order('01012345678'), businessReference: 'B-2' },
      ])
      .catch((err: unknown) => err)) as BulkCreationError;
    expect(error).toBeInstanceOf(BulkCreationError);
    const [failure] = error.failed;
    expect(failure?.error).toBeInstanceOf(InvalidRequestError);
    expect(failure?.error).toMatchObject({ source: 'server', issues: [{ path: ['receiver', 'phone'] }] });
  });
});
