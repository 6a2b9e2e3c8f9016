// What the sandbox keeps of what it did: every API request (`requestLog()`, secrets masked), every
// webhook delivery (`webhookLog()`), each bounded so that a sandbox running all day stays small,
// and a delivery sent again (`resendWebhook`).
import { afterAll, describe, expect, it } from 'vitest';
import { MASKED, MAX_LOGGED_REQUESTS, maskSecrets } from '../../src/testing/activity.js';
import { createSandbox } from '../../src/testing/index.js';
import { RingBuffer } from '../../src/testing/ring-buffer.js';
import { MAX_LOGGED_DELIVERIES, WebhookDispatcher } from '../../src/testing/webhook-dispatch.js';
import { dropOff } from '../support/sandbox.js';

const sandbox = createSandbox({ webhookFetch: async () => new Response(null, { status: 503 }), webhookRetry: { attempts: 2, baseDelayMs: 1 } });
const shop = sandbox.createMerchant({ businessName: 'Nile Shop', webhook: { url: 'https://nile.example/hooks' } });
afterAll(() => sandbox.close());

const create = (body: Record<string, unknown>, apiKey = shop.apiKey): Promise<Response> =>
  sandbox.fetch(`${sandbox.baseUrl}/deliveries?apiVersion=1`, {
    method: 'POST',
    headers: { authorization: apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const order = { type: 10, cod: 250, dropOffAddress: dropOff, receiver: { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' } };

/** Until the bodies read as they arrive have been read. */
const bodiesRead = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('sandbox.requestLog()', () => {
  it('lists every API request: merchant, method, path, query, status, errorCode, message, and the body with secrets masked', async () => {
    const before = sandbox.requestLog().length;
    const refused = await create({ ...order, cod: 50_000, webhookCustomHeaders: { 'X-Key': 'private-value' }, notes: `key ${shop.apiKey}` });
    expect(refused.status).toBe(400);
    await bodiesRead();
    const logged = sandbox.requestLog().at(-1);
    expect(sandbox.requestLog().length).toBe(before + 1);
    expect(logged).toMatchObject({ merchantId: shop.id, method: 'POST', path: '/deliveries', query: '?apiVersion=1', status: 400, errorCode: 3007 });
    expect(logged?.message).toMatch(/COD must be at most 30000/);
    expect(logged?.body).toMatchObject({ cod: 50_000, webhookCustomHeaders: { 'X-Key': MASKED }, notes: `key ${MASKED}` });
  });

  it('names no merchant for a key no merchant has, and logs the injected fault that bent a request, a dropped one without a status', async () => {
    expect((await create(order, 'no-such-key')).status).toBe(401);
    expect(sandbox.requestLog().at(-1)).toMatchObject({ status: 401, errorCode: 1028 });
    expect(sandbox.requestLog().at(-1)?.merchantId).toBeUndefined();
    sandbox.injectFault({ kind: 'unavailable', path: '/deliveries' });
    expect((await create(order)).status).toBe(503);
    expect(sandbox.requestLog().at(-1)).toMatchObject({ status: 503, fault: 'unavailable' });
    sandbox.injectFault({ kind: 'drop-after', path: '/deliveries' });
    await expect(create(order)).rejects.toThrow(TypeError);
    const dropped = sandbox.requestLog().at(-1);
    expect(dropped).toMatchObject({ fault: 'drop-after', method: 'POST' });
    expect(dropped?.status).toBeUndefined();
  });

  it('masks passwords, one-time codes, tokens, API keys and header values by their field names, in a body cut short too', () => {
    const body = { password: 'p4ss', profile: { phone: '+20100' }, token: '123456', headerValue: 'v', otp: 1234, apiKey: 'k', name: 'Mona "M"', code: 'c' };
    const masked = JSON.parse(maskSecrets(JSON.stringify(body), []));
    expect(masked).toEqual({
      password: MASKED,
      profile: { phone: '+20100' },
      token: MASKED,
      headerValue: MASKED,
      otp: MASKED,
      apiKey: MASKED,
      name: 'Mona "M"',
      code: MASKED,
    });
    expect(maskSecrets('{"deliveries":[{"cod":1,"password":"p4ss"},{"webhookCustomHeaders":{"X-A":"1","X-B":"2"},"note":"key-abcdef"', ['key-abcdef'])).toBe(
      `{"deliveries":[{"cod":1,"password":"${MASKED}"},{"webhookCustomHeaders":{"X-A":"${MASKED}","X-B":"${MASKED}"},"note":"${MASKED}"`,
    );
  });

  it('masks a known secret written with JSON escapes, which the shown body would decode', () => {
    const escaped = `{"note":"${Array.from('key-abcdef', (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`;
    expect(JSON.parse(escaped)).toEqual({ note: 'key-abcdef' });
    expect(JSON.parse(maskSecrets(escaped, ['key-abcdef']))).toEqual({ note: MASKED });
  });

  it('leaves a body as it is for a secret too short to be told from its words, escaped text included', () => {
    const body = '{"notes":"latest caf\\u00e9 test"}';
    for (const short of ['test', '']) expect(maskSecrets(body, [short])).toBe(body);
  });

  it('keeps a body up to 16 KiB, and shows a longer one cut there, masked as far as it goes', async () => {
    const deliveries = Array.from({ length: 200 }, (_, i) => ({ ...order, businessReference: `ROW-${i}`, webhookCustomHeaders: { 'X-Key': 'private-value' } }));
    await sandbox.fetch(`${sandbox.baseUrl}/deliveries/bulk?apiVersion=1`, {
      method: 'POST',
      headers: { authorization: shop.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ deleteFailedDeliveries: false, deliveries }),
    });
    await bodiesRead();
    const body = sandbox.requestLog().at(-1)?.body;
    expect(typeof body).toBe('string');
    expect(body).toMatch(/^\{"deleteFailedDeliveries":false,"deliveries":\[/);
    expect(body).toMatch(/… \(cut at 16384 characters\)$/);
    expect(body).not.toContain('private-value');
    expect((body as string).length).toBeLessThan(16_384 + 100);
  });

  it(`keeps the last ${MAX_LOGGED_REQUESTS}, dropping the oldest first`, async () => {
    const buffer = new RingBuffer<number>(MAX_LOGGED_REQUESTS);
    for (let i = 1; i <= 3 * MAX_LOGGED_REQUESTS + 7; i++) buffer.push(i);
    expect(buffer.values()).toHaveLength(MAX_LOGGED_REQUESTS);
    expect(buffer.values()[0]).toBe(2 * MAX_LOGGED_REQUESTS + 8);
    const busy = createSandbox();
    for (let i = 0; i < MAX_LOGGED_REQUESTS + 5; i++) await busy.fetch(`${busy.baseUrl}/cities?countryId=1`);
    const log = busy.requestLog();
    expect(log).toHaveLength(MAX_LOGGED_REQUESTS);
    expect(log[0]?.id).toBe(6);
    expect(log.at(-1)?.id).toBe(MAX_LOGGED_REQUESTS + 5);
    await busy.close();
  });
});

describe('the webhook log', () => {
  it(`keeps the last ${MAX_LOGGED_DELIVERIES} deliveries, their ids never reused`, async () => {
    const dispatcher = new WebhookDispatcher({ attempts: 1 }, Date.now, async () => new Response(null, { status: 200 }));
    const body = {
      _id: 'x',
      trackingNumber: '70000001',
      state: 20,
      type: 'SEND',
      timeStamp: 1,
      isConfirmedDelivery: false,
      deliveryPromiseDate: '01-01-2026',
      numberOfAttempts: 0,
    } as const;
    for (let i = 0; i < MAX_LOGGED_DELIVERIES + 5; i++) await dispatcher.send({ url: 'http://127.0.0.1:1/hooks', headers: {} }, body);
    const log = dispatcher.log();
    expect(log).toHaveLength(MAX_LOGGED_DELIVERIES);
    expect([log[0]?.id, log.at(-1)?.id]).toEqual([6, MAX_LOGGED_DELIVERIES + 5]);
  });

  it('resends a delivery as a new one, to the same receiver with the same body, with attempts of its own', async () => {
    const { data } = (await (await create(order)).json()) as { data: { trackingNumber: string } };
    await sandbox.advance(data.trackingNumber, { to: 20 });
    const first = sandbox
      .webhookLog()
      .filter((delivery) => delivery.trackingNumber === data.trackingNumber)
      .at(-1);
    const again = await sandbox.resendWebhook(first?.id ?? 0);
    expect(again).toMatchObject({ resendOf: first?.id, url: first?.url, body: first?.body, trackingNumber: data.trackingNumber });
    expect(again.id).toBeGreaterThan(first?.id ?? 0);
    expect(again.attempts[0]?.status).toBe(503);
    await expect(sandbox.resendWebhook(1e9)).rejects.toThrow(/No webhook delivery 1000000000/);
  });
});
