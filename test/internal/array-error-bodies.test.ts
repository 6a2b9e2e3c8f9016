// The service's validator answers a 400 with a bare array, `[{ message, path, type }]`: a refusal
// of fields, an InvalidRequestError (a ValidationError, source 'server') whose message has the
// text and whose issues have the paths; the sandbox answers the same way when its own validator
// refuses a field of the wrong type. A body that names no field stays an ApiError.
import { describe, expect, it } from 'vitest';
import { ApiError, DeliveryType, InvalidRequestError } from '../../src/index.js';
import { createSandbox } from '../../src/testing/index.js';
import { validationArray400 } from '../fixtures/real/answers/validation-array-400.js';
import { BASE, HttpResponse, http, makeClient, rejection, useFakeService } from '../support/fake-service.js';

const order = {
  type: DeliveryType.Deliver,
  dropOffAddress: { city: 'Giza', districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street, 3rd floor' },
  cod: 250,
} as const;

const apiErrorOf = (call: Promise<unknown>): Promise<ApiError> => rejection(call, ApiError);
const refusalOf = async (call: Promise<unknown>): Promise<InvalidRequestError> => {
  const error = await rejection(call, InvalidRequestError);
  expect(error.source).toBe('server');
  return error;
};

describe('an error body that is the validator array', () => {
  const server = useFakeService();

  it('puts every message in err.message and every path, split into segments, in err.issues', async () => {
    server.use(http.post(`${BASE}/deliveries`, () => HttpResponse.json(validationArray400.body, { status: validationArray400.status })));
    const error = await refusalOf(makeClient().deliveries.create(order, { validate: false }));
    expect(error.status).toBe(400);
    expect(error.body).toEqual(validationArray400.body);
    expect(error.issues).toEqual(validationArray400.issues);
    expect(error.message).toContain('"dropOffAddress.city" is required; "receiver.phone" must be a string');
    // A message that does not name its field gets the path.
    expect(error.message).toContain('fulfillmentInfo.items[0].quantity: must be at least 1');
  });

  it('shows the first ten messages and counts the rest', async () => {
    const body = Array.from({ length: 25 }, (_, i) => ({ message: `"items[${i}].sku" is required`, path: ['items', i, 'sku'], type: 'any.required' }));
    server.use(http.post(`${BASE}/deliveries`, () => HttpResponse.json(body, { status: 400 })));
    const error = await refusalOf(makeClient().deliveries.create(order, { validate: false }));
    expect(error.issues).toHaveLength(25);
    expect(error.issues[24]?.path).toEqual(['items', 24, 'sku']);
    expect(error.message).toContain('"items[9].sku" is required; and 15 more');
    expect(error.message).not.toContain('items[10]');
  });

  it('leaves issues empty for the spec envelope and for arrays of something else', async () => {
    for (const body of [{ success: false, message: 'Bad request' }, ['plain', 'strings'], [{ path: 'x' }]]) {
      server.use(http.post(`${BASE}/deliveries`, () => HttpResponse.json(body, { status: 400 })));
      const error = await apiErrorOf(makeClient().deliveries.create(order, { validate: false }));
      expect(error.issues).toEqual([]);
      expect(error.body).toEqual(body);
    }
  });
});

describe('the sandbox', () => {
  it('answers a field of the wrong type with the validator array, which the client reads into issues', async () => {
    const sandbox = createSandbox({ apiKey: 'sandbox-key-for-arrays' });
    const server = await sandbox.listen();
    try {
      const client = makeClient({ baseUrl: server.baseUrl, apiKey: 'sandbox-key-for-arrays' });
      const business = await client.businesses.create({ name: 'Nile Shop', salesChannel: 'FACEBOOK_SELLER' });
      await client.businesses.updatePickupLocations(business._id, [
        { locationName: 'Warehouse', districtId: 'district-eg-giza-dokki', firstLine: '5 Tahrir Street' },
      ]);
      const cases: Array<[Record<string, unknown>, Array<string | number>]> = [
        [{ cod: 'two hundred' }, ['cod']],
        [{ allowToOpenPackage: 'yes' }, ['allowToOpenPackage']],
        [{ specs: 'SMALL' }, ['specs']],
        [{ businessReference: 42 }, ['businessReference']],
      ];
      for (const [change, path] of cases) {
        const error = await refusalOf(client.deliveries.create({ ...order, ...change } as never, { validate: false }));
        expect(error.status).toBe(400);
        expect(Array.isArray(error.body)).toBe(true);
        expect(error.issues.map((issue) => issue.path)).toEqual([path]);
        expect(error.message).toContain(`"${path.join('.')}" must be`);
      }
      // A rule the spec codes keeps the envelope and its class.
      await expect(client.deliveries.create({ ...order, cod: 45_000 }, { validate: false })).rejects.toMatchObject({ errorCode: 3007, source: 'server' });
    } finally {
      await sandbox.close();
    }
  });
});
