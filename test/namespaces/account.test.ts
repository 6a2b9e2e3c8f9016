import { describe, expect, it } from 'vitest';
import { ApiError, CountryId, NotFoundError, ResponseShapeError, ServerError, ValidationError } from '../../src/index.js';
import { capture, errorBody, HttpResponse, KEY, makeClient, ok, useFakeService } from '../support/fake-service.js';

const server = useFakeService();

const registration = {
  email: 'owner@nile.example',
  password: 's3cret!',
  profile: { firstName: 'Mona', lastName: 'Adel', phone: '+201001234567' },
  heardAboutUsFrom: 'FACEBOOK',
  countryId: CountryId.Egypt,
};

describe('users (registration: public endpoints, POST, no apiVersion)', () => {
  it('registerBusinessAdmin: POST /users/business/admin with the spec body, the user typed', async () => {
    const sent = capture(server, 'post', '/users/business/admin', (s) =>
      ok({ _id: 'user-1', ...(s.json as object), phoneVerified: false, emailVerified: false, role: 'ADMIN' }, 201),
    );
    const admin = await makeClient().users.registerBusinessAdmin({ ...registration, heardAboutUsFrom: undefined });
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/users/business/admin', search: '' });
    expect(sent[0]?.headers['content-type']).toBe('application/json');
    // undefined dropped, nothing else added
    expect(sent[0]?.text).toBe(JSON.stringify({ email: 'owner@nile.example', password: 's3cret!', profile: registration.profile, countryId: CountryId.Egypt }));
    expect(admin).toMatchObject({ _id: 'user-1', email: 'owner@nile.example', phoneVerified: false, role: 'ADMIN' });
  });

  it('verifyPhone, confirmPhone and confirmEmail: their paths and bodies', async () => {
    const verify = capture(server, 'post', '/users/business-admin/phone/verify', (s) => ok({ ...(s.json as object), codeSent: true }));
    const confirm = capture(server, 'post', '/users/business-admin/phone/confirm', () => ok({ phone: '+201001234567', phoneVerified: true }));
    const mail = capture(server, 'post', '/users/mail/confirm', () => ok({ emailVerified: true }));
    const users = makeClient().users;
    expect(await users.verifyPhone({ phone: '+201001234567' })).toEqual({ phone: '+201001234567', codeSent: true });
    expect(await users.confirmPhone({ phone: '+201001234567', token: '123456' })).toEqual({ phone: '+201001234567', phoneVerified: true });
    expect(await users.confirmEmail({ token: 'mail-token' })).toEqual({ emailVerified: true });
    expect([verify[0]?.json, confirm[0]?.json, mail[0]?.json]).toEqual([
      { phone: '+201001234567' },
      { phone: '+201001234567', token: '123456' },
      { token: 'mail-token' },
    ]);
    expect([verify, confirm, mail].map((s) => s[0]?.search)).toEqual(['', '', '']);
  });

  it('a data-less success is an empty result, not a crash', async () => {
    capture(server, 'post', '/users/business-admin/phone/verify', () => ok(null));
    expect(await makeClient().users.verifyPhone({ phone: '+201001234567' })).toEqual({});
  });

  it('refuses an invalid registration before sending, every problem with its path', async () => {
    const sent = capture(server, 'post', '/users/business/admin', () => ok({}));
    const error = await makeClient()
      .users.registerBusinessAdmin({ ...registration, email: 'not-an-email', profile: { ...registration.profile, phone: '' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['email'], ['profile', 'phone']]);
    expect(sent).toHaveLength(0);
  });

  it('a wrong code is an ApiError (400 without errorCode), and the POST is not repeated', async () => {
    const sent = capture(server, 'post', '/users/business-admin/phone/confirm', () =>
      HttpResponse.json(errorBody(undefined, 'The code is wrong or has expired'), { status: 400 }),
    );
    const error = await makeClient()
      .users.confirmPhone({ phone: '+201001234567', token: '000000' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, errorCode: undefined });
    expect((error as Error).message).toMatch(/The code is wrong/);
    expect(sent).toHaveLength(1);
  });
});

describe('businesses (key needed)', () => {
  it('create, basic flow: POST /businesses with salesChannel a string, the Authorization key, the business typed', async () => {
    const sent = capture(server, 'post', '/businesses', (s) => ok({ ...(s.json as object), _id: 'biz-1', pickupLocations: [] }, 201));
    const input = { name: 'Nile Shop', salesChannel: 'FACEBOOK_SELLER', website: 'https://nile.example', industry: 'Fashion', interestedInServices: ['SEND'] };
    const business = await makeClient().businesses.create(input);
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/businesses', search: '', json: input });
    expect(sent[0]?.headers['authorization']).toBe(KEY);
    expect(business).toEqual({ ...input, _id: 'biz-1', pickupLocations: [] });
  });

  it('create, marketplace flow: salesChannel an array and autoCreatePickups true, sent as given', async () => {
    const sent = capture(server, 'post', '/businesses', (s) => ok({ ...(s.json as object), _id: 'biz-2' }, 201));
    const input = {
      name: 'Nile Market',
      industry: 'Fashion',
      monthlyShipmentVolume: '100-500',
      salesChannel: ['FACEBOOK_SELLER', 'INSTAGRAM'],
      autoCreatePickups: true as const,
    };
    const business = await makeClient().businesses.create(input);
    expect(sent[0]?.text).toBe(JSON.stringify(input));
    expect(business.autoCreatePickups).toBe(true);
  });

  it('refuses the marketplace flow with a string salesChannel before sending', async () => {
    const sent = capture(server, 'post', '/businesses', () => ok({ _id: 'x' }));
    const error = await makeClient()
      .businesses.create({ name: 'Nile Market', autoCreatePickups: true, salesChannel: 'FACEBOOK_SELLER' as unknown as string[] })
      .catch((e: unknown) => e);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['salesChannel']]);
    expect(sent).toHaveLength(0);
  });

  it('a created business without _id is a ResponseShapeError that says it may exist', async () => {
    capture(server, 'post', '/businesses', () => ok({ name: 'Nile Shop' }, 201));
    const error = await makeClient()
      .businesses.create({ name: 'Nile Shop' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as Error).message).toMatch(/without _id \(it may exist all the same\)/);
  });

  it('a numeric _id is read as a string', async () => {
    capture(server, 'post', '/businesses', () => ok({ _id: 42 }, 201));
    expect((await makeClient().businesses.create({ name: 'Nile Shop' }))._id).toBe('42');
  });

  it('updatePickupLocations: PUT /businesses/<id> with { pickupAddress }, the id encoded, the locations typed', async () => {
    const locations = [{ locationName: 'Warehouse', districtId: 'district-makram', firstLine: '5 Makram Ebeid Street', secondLine: undefined }];
    const sent = capture(server, 'put', '/businesses/:id', () =>
      ok({
        _id: 'biz/1',
        name: 'Nile Shop',
        pickupLocations: [{ _id: 'loc-1', locationName: 'Warehouse', isDefault: true, address: { districtId: 'district-makram' } }],
      }),
    );
    const business = await makeClient().businesses.updatePickupLocations('biz/1', locations);
    expect(sent[0]).toMatchObject({ method: 'PUT', path: '/businesses/biz%2F1', search: '' });
    expect(sent[0]?.text).toBe(
      JSON.stringify({ pickupAddress: [{ locationName: 'Warehouse', districtId: 'district-makram', firstLine: '5 Makram Ebeid Street' }] }),
    );
    expect(business.pickupLocations?.[0]).toMatchObject({ _id: 'loc-1', isDefault: true });
  });

  it('updatePickupLocations checks every entry before sending (paths from the index) and needs an id', async () => {
    const sent = capture(server, 'put', '/businesses/:id', () => ok({}));
    const businesses = makeClient().businesses;
    const error = await businesses
      .updatePickupLocations('biz-1', [
        { districtId: 'd1', firstLine: '5 Makram Ebeid' },
        { districtId: '', firstLine: 'abc' },
      ])
      .catch((e: unknown) => e);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([
      [1, 'districtId'],
      [1, 'firstLine'],
    ]);
    await expect(businesses.updatePickupLocations('biz-1', [])).rejects.toBeInstanceOf(ValidationError);
    await expect(businesses.updatePickupLocations('', [{ districtId: 'd1', firstLine: '5 Makram Ebeid' }])).rejects.toThrow(
      /businessId: expected a non-empty string, received ''/,
    );
    expect(sent).toHaveLength(0);
  });

  it('an unknown business is a NotFoundError; a 503 is not repeated, since a PUT here adds locations', async () => {
    let calls = 0;
    capture(server, 'put', '/businesses/:id', (s) => {
      calls++;
      return s.path.endsWith('missing')
        ? HttpResponse.json(errorBody(undefined, 'Business Not Found'), { status: 404 })
        : HttpResponse.json(errorBody(undefined, 'down'), { status: 503 });
    });
    const businesses = makeClient().businesses;
    const entry = [{ districtId: 'd1', firstLine: '5 Makram Ebeid' }];
    await expect(businesses.updatePickupLocations('missing', entry)).rejects.toBeInstanceOf(NotFoundError);
    await expect(businesses.updatePickupLocations('biz-1', entry)).rejects.toBeInstanceOf(ServerError);
    expect(calls).toBe(2);
  });
});
