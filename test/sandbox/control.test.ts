import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, SANDBOX_COUNTRY_IDS, type SandboxServer } from '../../src/testing/index.js';
import { dropOff, MAKRAM_EBEID, startReceiver } from '../support/sandbox.js';

const sandbox = createSandbox({ apiKey: 'k' });
let server: SandboxServer;
let origin: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  server = await sandbox.listen();
  origin = server.baseUrl.replace(/\/v2$/, '');
  receiver = await startReceiver();
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

const send = async (method: string, url: string, body?: unknown, key = true) => {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', 'x-sandbox-token': server.controlToken, ...(key ? { authorization: 'k' } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
};

describe('control endpoints of a listen() server (for other processes and languages)', () => {
  it('runs a whole merchant journey over plain HTTP', async () => {
    const phone = '+201009998887';
    await send(
      'POST',
      `${server.baseUrl}/users/business/admin`,
      { email: 'x@y.example', password: 'pw-123456', profile: { firstName: 'A', lastName: 'B', phone }, countryId: SANDBOX_COUNTRY_IDS.egypt },
      false,
    );
    await send('POST', `${server.baseUrl}/users/business-admin/phone/verify`, { phone }, false);
    const otp = await send('GET', `${origin}/__sandbox/otp?phone=${encodeURIComponent(phone)}`);
    expect(otp.body.data.otp).toMatch(/^\d{6}$/);
    expect((await send('POST', `${server.baseUrl}/users/business-admin/phone/confirm`, { phone, token: otp.body.data.otp }, false)).status).toBe(200);

    const business = await send('POST', `${server.baseUrl}/businesses`, { name: 'Remote shop' });
    await send('PUT', `${server.baseUrl}/businesses/${business.body.data._id}`, { pickupAddress: [{ districtId: MAKRAM_EBEID, firstLine: '5 Makram Ebeid' }] });
    expect((await send('PUT', `${origin}/__sandbox/webhook`, { url: receiver.url, headerName: 'X-Key', headerValue: 'v' })).status).toBe(200);
    const order = await send('POST', `${server.baseUrl}/deliveries?apiVersion=1`, { type: 10, dropOffAddress: dropOff, cod: 99 });
    const tn: string = order.body.data.trackingNumber;

    expect((await send('POST', `${origin}/__sandbox/orders/${tn}/advance`, { to: 45 })).body).toMatchObject({
      success: false,
      message: expect.stringContaining('cannot move from 10'),
    });
    expect((await send('POST', `${origin}/__sandbox/orders/${tn}/advance`, { to: 47, exceptionCode: '1' })).body).toMatchObject({
      success: false,
      message: expect.stringContaining('`exceptionCode` must be'),
    });
    const played = await send('POST', `${origin}/__sandbox/orders/${tn}/play`, { scenario: 'success' });
    expect(played.body.data.map((e: { state: number }) => e.state)).toEqual([20, 21, 24, 30, 24, 41, 45]);
    expect(receiver.received.map((r) => r.body.state)).toEqual([20, 21, 24, 30, 24, 41, 45]);
    expect(receiver.received[0]?.headers['x-key']).toBe('v');
    const log = await send('GET', `${origin}/__sandbox/webhooks`);
    expect(log.body.data).toHaveLength(7);
    const resent = await send('POST', `${origin}/__sandbox/webhooks/${log.body.data[6].id}/resend`);
    expect(resent.body.data).toMatchObject({ id: 8, resendOf: 7, status: 'delivered', body: { state: 45 } });
    expect(receiver.received.map((r) => r.body.state)).toEqual([20, 21, 24, 30, 24, 41, 45, 45]);
    expect((await send('POST', `${origin}/__sandbox/webhooks/99/resend`)).status).toBe(400);
    const requests = await send('GET', `${origin}/__sandbox/requests`);
    expect(requests.body.data.at(-1)).toMatchObject({ method: 'POST', path: '/deliveries', status: 201, merchantId: 'default' });
    const state = await send('GET', `${origin}/__sandbox/orders/${tn}`);
    expect(state.body.data).toMatchObject({ state: 45, nextStates: [104] });
  });

  it('switches faults on and off', async () => {
    await send('POST', `${origin}/__sandbox/faults`, { rate: 1, kinds: ['unavailable'] });
    expect((await fetch(`${server.baseUrl}/cities`)).status).toBe(503);
    await send('DELETE', `${origin}/__sandbox/faults`);
    expect((await fetch(`${server.baseUrl}/cities`)).status).toBe(200);
  });
});
