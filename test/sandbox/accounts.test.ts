import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, SANDBOX_COUNTRY_IDS, type Sandbox } from '../../src/testing/index.js';
import { call, MADINATY_NO_PICKUP, MAKRAM_EBEID } from '../support/sandbox.js';

let sandbox: Sandbox;
afterEach(() => sandbox.close());

const admin = {
  email: 'owner@nile.example',
  password: 'correct horse battery',
  profile: { firstName: 'Mona', lastName: 'Hassan', phone: '+201001234567' },
  heardAboutUsFrom: 'FACEBOOK',
  countryId: SANDBOX_COUNTRY_IDS.egypt,
};

describe('registration (public)', () => {
  it('registers an admin, confirms the phone with the one-time code, then the e-mail', async () => {
    sandbox = createSandbox();
    const registered = await call(sandbox, 'POST', '/users/business/admin', admin, null);
    expect(registered.status).toBe(201);
    expect(registered.body.data).toEqual({
      _id: expect.any(String),
      email: admin.email,
      profile: admin.profile,
      countryId: admin.countryId,
      phoneVerified: false,
      emailVerified: false,
    });

    const verify = await call(sandbox, 'POST', '/users/business-admin/phone/verify', { phone: admin.profile.phone }, null);
    expect(verify.body.data).toEqual({ phone: admin.profile.phone, codeSent: true });
    const otp = sandbox.lastOtp(admin.profile.phone);
    expect(otp).toMatch(/^\d{6}$/);

    const confirmed = await call(sandbox, 'POST', '/users/business-admin/phone/confirm', { phone: admin.profile.phone, token: otp }, null);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toEqual({ phone: admin.profile.phone, phoneVerified: true });

    const token = sandbox.lastEmailToken(admin.email);
    const mail = await call(sandbox, 'POST', '/users/mail/confirm', { token }, null);
    expect(mail.body.data).toEqual({ emailVerified: true });
  });

  it('refuses a wrong code with 400 and no errorCode, and a code twice', async () => {
    sandbox = createSandbox();
    await call(sandbox, 'POST', '/users/business/admin', admin, null);
    await call(sandbox, 'POST', '/users/business-admin/phone/verify', { phone: admin.profile.phone }, null);
    const otp = sandbox.lastOtp(admin.profile.phone) ?? '';
    const wrong = await call(
      sandbox,
      'POST',
      '/users/business-admin/phone/confirm',
      { phone: admin.profile.phone, token: otp === '000000' ? '111111' : '000000' },
      null,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body).not.toHaveProperty('errorCode');
    expect((await call(sandbox, 'POST', '/users/business-admin/phone/confirm', { phone: admin.profile.phone, token: otp }, null)).status).toBe(200);
    expect((await call(sandbox, 'POST', '/users/business-admin/phone/confirm', { phone: admin.profile.phone, token: otp }, null)).status).toBe(400);
  });

  it('draws the same codes for the same seed', async () => {
    const codes = async (seed: number) => {
      const box = createSandbox({ seed });
      await call(box, 'POST', '/users/business/admin', admin, null);
      await call(box, 'POST', '/users/business-admin/phone/verify', { phone: admin.profile.phone }, null);
      const otp = box.lastOtp(admin.profile.phone);
      await box.close();
      return otp;
    };
    sandbox = createSandbox();
    expect(await codes(7)).toBe(await codes(7));
    expect(await codes(7)).not.toBe(await codes(8));
  });

  it('refuses a second registration with the same e-mail and a missing profile field', async () => {
    sandbox = createSandbox();
    await call(sandbox, 'POST', '/users/business/admin', admin, null);
    expect((await call(sandbox, 'POST', '/users/business/admin', admin, null)).status).toBe(400);
    const noPhone = await call(
      sandbox,
      'POST',
      '/users/business/admin',
      { ...admin, email: 'b@nile.example', profile: { firstName: 'A', lastName: 'B' } },
      null,
    );
    expect(noPhone.status).toBe(400);
    expect(noPhone.body.message).toContain('profile.phone');
  });
});

describe('businesses (API key needed)', () => {
  it('answers 401 with errorCode 1028 (invalid token or key, as integrations meet it) when the key is missing or wrong', async () => {
    sandbox = createSandbox({ apiKey: 'k-123' });
    for (const key of [null, 'wrong']) {
      const answer = await call(sandbox, 'POST', '/businesses', { name: 'Shop' }, key);
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ success: false, errorCode: 1028 });
    }
    expect((await call(sandbox, 'POST', '/businesses', { name: 'Shop' }, 'k-123')).status).toBe(201);
  });

  it('checks the header as the service does: the raw key in Authorization; a scheme or another header is 401', async () => {
    sandbox = createSandbox({ apiKey: 'k-123' });
    for (const key of ['Bearer k-123', 'Token k-123', 'bearer k-123']) {
      const answer = await call(sandbox, 'POST', '/businesses', { name: 'Shop' }, key);
      expect(answer.status, key).toBe(401);
      expect(answer.body).toMatchObject({ success: false, message: expect.stringContaining('raw key') });
    }
    const { DeliveryClient, AuthenticationError } = await import('../../src/index.js');
    const setUp = (auth?: { headerName?: string; scheme?: string }) =>
      new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: 'k-123', fetch: sandbox.fetch, maxRetries: 0, auth });
    await expect(setUp({ scheme: 'Bearer' }).businesses.create({ name: 'Shop' })).rejects.toBeInstanceOf(AuthenticationError);
    await expect(setUp({ headerName: 'X-Api-Key' }).businesses.create({ name: 'Shop' })).rejects.toBeInstanceOf(AuthenticationError);
    await expect(setUp().businesses.create({ name: 'Shop' })).resolves.toMatchObject({ name: 'Shop' });
  });

  it('creates a basic business, echoing the input', async () => {
    sandbox = createSandbox();
    const input = { name: 'Nile Shop', salesChannel: 'FACEBOOK_SELLER', website: 'https://nile.example', industry: 'Fashion', interestedInServices: ['SEND'] };
    const answer = await call(sandbox, 'POST', '/businesses', input);
    expect(answer.status).toBe(201);
    expect(answer.body.data).toEqual({ ...input, _id: expect.any(String), autoCreatePickups: false, pickupLocations: [] });
  });

  it('creates a marketplace business; salesChannel must then be an array', async () => {
    sandbox = createSandbox();
    const input = { name: 'Bazaar', industry: 'Retail', monthlyShipmentVolume: '100-500', salesChannel: ['WEBSITE'], autoCreatePickups: true };
    expect((await call(sandbox, 'POST', '/businesses', input)).body.data.autoCreatePickups).toBe(true);
    expect((await call(sandbox, 'POST', '/businesses', { ...input, salesChannel: 'WEBSITE' })).status).toBe(400);
  });

  it('adds pickup locations; the first one ever is the default', async () => {
    sandbox = createSandbox();
    const { body } = await call(sandbox, 'POST', '/businesses', { name: 'Nile Shop' });
    const id: string = body.data._id;
    const first = await call(sandbox, 'PUT', `/businesses/${id}`, {
      pickupAddress: [{ locationName: 'HQ', districtId: MAKRAM_EBEID, firstLine: '5 Makram', buildingNumber: '5' }],
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      _id: id,
      name: 'Nile Shop',
      pickupLocations: [
        { _id: expect.any(String), locationName: 'HQ', isDefault: true, address: { districtId: MAKRAM_EBEID, firstLine: '5 Makram', buildingNumber: '5' } },
      ],
    });
    const second = await call(sandbox, 'PUT', `/businesses/${id}`, {
      pickupAddress: [{ locationName: 'Store', districtId: MAKRAM_EBEID, firstLine: 'Second street' }],
    });
    expect(second.body.data.pickupLocations.map((l: { isDefault: boolean }) => l.isDefault)).toEqual([true, false]);
  });

  it('checks pickup locations: firstLine of at least 5 characters, a known district that allows pickup', async () => {
    sandbox = createSandbox();
    const { body } = await call(sandbox, 'POST', '/businesses', { name: 'Nile Shop' });
    const put = (entry: object) => call(sandbox, 'PUT', `/businesses/${body.data._id}`, { pickupAddress: [entry] });
    expect((await put({ districtId: MAKRAM_EBEID, firstLine: '1234' })).status).toBe(400);
    expect((await put({ districtId: MAKRAM_EBEID, firstLine: '12345' })).status).toBe(200);
    const unknown = await put({ districtId: 'district-nowhere', firstLine: '12345 street' });
    expect(unknown.body.errorCode).toBe(3003);
    const noPickup = await put({ districtId: MADINATY_NO_PICKUP, firstLine: '12345 street' });
    expect(noPickup.status).toBe(400);
    expect(noPickup.body.message).toContain('pickupAvailability');
  });

  it('answers 404 for an unknown business', async () => {
    sandbox = createSandbox();
    const answer = await call(sandbox, 'PUT', '/businesses/5b0000000000000000000999', { pickupAddress: [{ districtId: MAKRAM_EBEID, firstLine: '12345' }] });
    expect(answer.status).toBe(404);
  });
});
