// Refusals only the service can give, read into the classes users catch (issue 32): the account
// codes integrations meet (live-service.md, "A merchant's month"), an address the service does not
// serve, and a change the order's state does not allow. Their wordings are not in the spec: the
// bodies below are the shapes live-service.md lists, the texts the sandbox writes.
import { describe, expect, it } from 'vitest';
import {
  AccountErrorCode,
  AddressNotServedError,
  ApiError,
  AuthenticationError,
  InvalidRequestError,
  isDeliveryError,
  OrderStateError,
  SubscriptionRequiredError,
  ValidationError,
} from '../../src/index.js';
import { errorBody, HttpResponse, http, makeClient, rejection, useFakeService } from '../support/fake-service.js';
import { validOrders } from '../support/orders.js';

const server = useFakeService();
const BASE = 'https://api.delivery.test/v2';
const order = () => validOrders.deliver() as Parameters<ReturnType<typeof makeClient>['deliveries']['create']>[0];

function answerCreate(status: number, body: Record<string, unknown>) {
  server.use(http.post(`${BASE}/deliveries`, () => HttpResponse.json(body as never, { status })));
}

describe('account codes', () => {
  it('8000002 is a SubscriptionRequiredError that narrows by its code, and the order surely does not exist', async () => {
    answerCreate(403, errorBody(8_000_002, 'Active bundle subscription required'));
    const error = await rejection(makeClient().deliveries.create(order()), SubscriptionRequiredError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.errorCode).toBe(AccountErrorCode.SubscriptionRequired);
    expect(error.mayExist).toBe(false);
    expect(error.message).toContain('Active bundle subscription required');
    expect(isDeliveryError(error, AccountErrorCode.SubscriptionRequired)).toBe(true);
  });

  it('1028 is an AuthenticationError carrying the code, whatever the status', async () => {
    answerCreate(400, errorBody(1028, 'Invalid token'));
    const error = await rejection(makeClient().deliveries.create(order()), AuthenticationError);
    expect(error.errorCode).toBe(1028);
    expect(error.status).toBe(400);
  });

  it("777 is an InvalidRequestError listing the service's fields from data", async () => {
    answerCreate(400, {
      success: false,
      message: 'Validation error',
      errorCode: 777,
      data: [
        { message: '"receiver.phone" is not a valid mobile number', path: ['receiver', 'phone'] },
        { field: 'cod', message: 'cod must be a number' },
        'notes is too long',
      ],
    });
    const error = await rejection(makeClient().deliveries.create(order()), InvalidRequestError);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ source: 'server', status: 400, mayExist: false });
    expect(error.errorCode).toBe(777);
    expect(isDeliveryError(error, AccountErrorCode.InvalidRequest)).toBe(true);
    expect(error.issues).toEqual([
      { path: ['receiver', 'phone'], message: '"receiver.phone" is not a valid mobile number' },
      { path: ['cod'], message: 'cod must be a number' },
      { path: [], message: 'notes is too long' },
    ]);
  });
});

describe('an address the service does not serve', () => {
  it.each([
    ['The service does not deliver to Dokki (dropOffAvailability is false)', 'dropOffAvailability'],
    ['District Zamalek is not covered for pickup', 'pickupAvailability'],
  ])('%s is an AddressNotServedError from the server', async (message, availability) => {
    answerCreate(400, errorBody(undefined, message));
    const error = await rejection(makeClient().deliveries.create(order()), AddressNotServedError);
    expect(error.source).toBe('server');
    expect(error.availability).toBe(availability);
    expect(error.place).toBeUndefined();
    expect(error.cause).toBeInstanceOf(ApiError);
    expect((error.cause as ApiError).status).toBe(400);
    expect(error.mayExist).toBe(false);
  });

  it('leaves other refusals as they are: a field refused is an InvalidRequestError, a sentence an ApiError', async () => {
    answerCreate(400, errorBody(undefined, 'receiver.phone is required'));
    const error = await rejection(makeClient().deliveries.create(order()), InvalidRequestError);
    expect(error).not.toBeInstanceOf(AddressNotServedError);
    answerCreate(400, errorBody(undefined, 'Receiver is blocked'));
    const other = await rejection(makeClient().deliveries.create(order()), ApiError);
    expect(other).not.toBeInstanceOf(AddressNotServedError);
  });
});

describe("a change the order's state does not allow", () => {
  it('an update the service refuses for the state is an OrderStateError naming the state', async () => {
    server.use(
      http.put(`${BASE}/deliveries/business/70000012`, () =>
        HttpResponse.json(errorBody(undefined, 'Delivery 70000012 cannot be updated in state 45 (Delivered)'), { status: 400 }),
      ),
    );
    const error = await rejection(makeClient().deliveries.update('70000012', { notes: 'Call first' }), OrderStateError);
    expect(error.source).toBe('server');
    expect(error.state).toBe(45);
    expect(error.allowedStates).toEqual([10, 11, 20, 21, 22, 24, 30, 41, 47]);
    expect(error.message).toContain('70000012');
    expect((error.cause as ApiError).status).toBe(400);
  });

  it('a terminate refused because the order is on its way is an OrderStateError too', async () => {
    server.use(
      http.delete(`${BASE}/deliveries/business/70000012/terminate`, () =>
        HttpResponse.json(errorBody(undefined, 'Delivery 70000012 cannot be terminated: it is in state 24, already on its way'), { status: 400 }),
      ),
    );
    const error = await rejection(makeClient().deliveries.terminate('70000012'), OrderStateError);
    expect(error.state).toBe(24);
    expect(error.source).toBe('server');
  });

  it('a refusal that says nothing of the state is no OrderStateError: the field it names is refused', async () => {
    server.use(http.put(`${BASE}/deliveries/business/70000012`, () => HttpResponse.json(errorBody(undefined, 'cod must be a number'), { status: 400 })));
    const error = await rejection(makeClient().deliveries.update('70000012', { notes: 'x' }, { validate: false }), InvalidRequestError);
    expect(error).not.toBeInstanceOf(OrderStateError);
    expect(error.issues).toEqual([{ path: ['cod'], message: 'cod must be a number' }]);
  });
});

describe('account codes in the sandbox', () => {
  it('a lapsed subscription refuses creates with SubscriptionRequiredError, and a wrong key is 1028', async () => {
    const { sandboxWithAccount, dropOff } = await import('../support/sandbox.js');
    const { sandbox, client } = await sandboxWithAccount();
    sandbox.setSubscriptionActive(false);
    const order = { type: 10 as const, dropOffAddress: dropOff, receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' } };
    const refused = await client.deliveries.create(order).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SubscriptionRequiredError);
    expect(sandbox.orders()).toEqual([]);
    sandbox.setSubscriptionActive(true);
    await expect(client.deliveries.create(order)).resolves.toMatchObject({ trackingNumber: expect.any(String) });

    const wrongKey = client.withOptions({ apiKey: 'not-the-sandbox-key' });
    const denied = await wrongKey.deliveries.get('70000001').catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(AuthenticationError);
    expect((denied as AuthenticationError).errorCode).toBe(AccountErrorCode.InvalidApiKey);
  });
});
