// One platform, many merchants (issue 32): `withOptions({ apiKey })` and the per-call `apiKey`
// share one transport, lookup cache and hooks, and keys never cross: each request carries its
// own key, and a failure of one merchant's call shows neither its key nor another's, in any of
// the encoded forms redaction knows.
import { describe, expect, it } from 'vitest';
import { createDelivery, DeliveryCore, getDelivery } from '../../src/functions/index.js';
import { ConfigurationError, DeliveryClient, type DeliveryError, type RequestSummary } from '../../src/index.js';
import { validOrders } from '../support/orders.js';

const BASE = 'https://api.delivery.test/v2';
const PLATFORM_KEY = 'sk_live_platform_0000000001';
const KEY_A = 'sk_live_merchant_A_1111111111';
const KEY_B = 'sk_live_merchant_B_2222222222';

/** A service that answers each request after a turn of the event loop, echoing the key it got (as a careless proxy might), raw and base64. */
function echoingService(status = 400) {
  const seen: Array<{ url: string; authorization: string | null }> = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const authorization = request.headers.get('authorization');
    seen.push({ url: request.url, authorization });
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (request.url.includes('/cities')) return Response.json({ success: true, data: [{ _id: 'c1', name: 'Cairo' }] });
    if (status < 400) return Response.json({ success: true, data: { _id: 'd1', trackingNumber: request.url.split('/').at(-1) } });
    return Response.json({ success: false, message: `key ${authorization} (${btoa(authorization ?? '')}) may not do this` }, { status });
  };
  return { seen, fetch };
}

const everythingOf = (error: DeliveryError): string =>
  JSON.stringify([error.message, error.hint, (error as { body?: unknown }).body, (error as { request?: RequestSummary }).request, error.toJSON?.()]);

const forms = (key: string) => [key, btoa(key), encodeURIComponent(key)];

describe('withOptions({ apiKey }) and the per-call apiKey', () => {
  it('send each request with its own key, whatever the interleaving, and never the platform key', async () => {
    const { seen, fetch } = echoingService(200);
    const platform = new DeliveryClient({ baseUrl: BASE, apiKey: PLATFORM_KEY, fetch, maxRetries: 0 });
    const merchantA = platform.withOptions({ apiKey: KEY_A });
    await Promise.allSettled([
      merchantA.deliveries.get('A-1'),
      platform.deliveries.get('B-1', { apiKey: KEY_B }),
      merchantA.deliveries.get('A-2'),
      platform.deliveries.get('P-1'),
      merchantA.deliveries.get('B-2', { apiKey: KEY_B }),
    ]);
    const keyOf = Object.fromEntries(seen.map(({ url, authorization }) => [url.split('/').at(-1), authorization]));
    expect(keyOf).toEqual({ 'A-1': KEY_A, 'A-2': KEY_A, 'B-1': KEY_B, 'B-2': KEY_B, 'P-1': PLATFORM_KEY });
  });

  it("scrub each failure of its own key (and the other merchant's), in every encoded form", async () => {
    const { fetch } = echoingService(403);
    const platform = new DeliveryClient({ baseUrl: BASE, apiKey: PLATFORM_KEY, fetch, maxRetries: 0 });
    const merchantA = platform.withOptions({ apiKey: KEY_A });
    const failures = await Promise.all([
      merchantA.deliveries.get('A-1').then(
        () => undefined,
        (error: unknown) => error as DeliveryError,
      ),
      platform.deliveries.get('B-1', { apiKey: KEY_B }).then(
        () => undefined,
        (error: unknown) => error as DeliveryError,
      ),
    ]);
    for (const failure of failures) {
      expect(failure).toBeDefined();
      const text = everythingOf(failure as DeliveryError);
      expect(text).toContain('[redacted]');
      for (const key of [KEY_A, KEY_B, PLATFORM_KEY]) for (const form of forms(key)) expect(text).not.toContain(form);
    }
  });

  it('share the lookup cache and the hooks, whose headers show no key', async () => {
    const { seen, fetch } = echoingService(200);
    const heard: Array<Record<string, string>> = [];
    const platform = new DeliveryClient({ baseUrl: BASE, fetch, maxRetries: 0, hooks: { onRequest: (event) => heard.push(event.headers) } });
    const merchantA = platform.withOptions({ apiKey: KEY_A });
    await platform.lookup.cities({ countryId: 'eg' });
    await merchantA.lookup.cities({ countryId: 'eg' });
    expect(seen.filter(({ url }) => url.includes('/cities'))).toHaveLength(1);
    await merchantA.deliveries.get('A-1').catch(() => undefined);
    expect(heard.at(-1)?.['authorization']).toBe('[redacted]');
    expect(JSON.stringify(heard)).not.toContain(KEY_A);
  });

  it('leave the key out of the public lookups, as the client key is', async () => {
    const { seen, fetch } = echoingService(200);
    const platform = new DeliveryClient({ baseUrl: BASE, fetch, maxRetries: 0, cache: false });
    await platform.withOptions({ apiKey: KEY_A }).lookup.cities({ countryId: 'eg' });
    await platform.lookup.cities({ countryId: 'eg' }, { apiKey: KEY_B });
    expect(seen.map(({ authorization }) => authorization)).toEqual([null, null]);
  });

  it('keep the scheme of `auth` for the per-merchant key', async () => {
    const { seen, fetch } = echoingService(200);
    const platform = new DeliveryClient({ baseUrl: BASE, fetch, maxRetries: 0, auth: { scheme: 'Bearer' } });
    await platform.withOptions({ apiKey: KEY_A }).deliveries.get('A-1');
    expect(seen[0]?.authorization).toBe(`Bearer ${KEY_A}`);
  });

  it('refuse a key that is not a header value, before sending', async () => {
    const { seen, fetch } = echoingService(200);
    const platform = new DeliveryClient({ baseUrl: BASE, fetch });
    expect(() => platform.withOptions({ apiKey: 'bad\r\nkey' })).toThrow(ConfigurationError);
    expect(() => platform.withOptions({ apiKey: '' })).toThrow(ConfigurationError);
    await expect(platform.deliveries.get('A-1', { apiKey: 42 as never })).rejects.toBeInstanceOf(ConfigurationError);
    expect(seen).toEqual([]);
  });

  it('make a client of its own for any other option, keeping the rest', async () => {
    const first = echoingService(200);
    const second = echoingService(200);
    const platform = new DeliveryClient({ baseUrl: BASE, apiKey: PLATFORM_KEY, fetch: first.fetch, maxRetries: 0 });
    const elsewhere = platform.withOptions({ fetch: second.fetch, baseUrl: 'https://eu.delivery.test/v2' });
    await elsewhere.deliveries.get('X-1');
    expect(second.seen).toEqual([{ url: 'https://eu.delivery.test/v2/deliveries/business/X-1', authorization: PLATFORM_KEY }]);
    expect(first.seen).toEqual([]);
    expect(elsewhere.baseUrl).toBe('https://eu.delivery.test/v2');
  });

  it('carry validate too: a merchant whose orders skip the checks', async () => {
    const { seen, fetch } = echoingService(200);
    const platform = new DeliveryClient({ baseUrl: BASE, fetch, maxRetries: 0 });
    const unchecked = platform.withOptions({ apiKey: KEY_A, validate: false });
    await unchecked.deliveries.create({ ...validOrders.deliver(), cod: 99_999 } as never).catch(() => undefined);
    await platform.deliveries.create({ ...validOrders.deliver(), cod: 99_999 } as never).catch(() => undefined);
    expect(seen).toHaveLength(1);
  });
});

describe('DeliveryCore.withOptions', () => {
  it('serves the standalone functions the same way', async () => {
    const { seen, fetch } = echoingService(200);
    const core = new DeliveryCore({ baseUrl: BASE, fetch, maxRetries: 0 });
    const merchant = core.withOptions({ apiKey: KEY_A });
    await getDelivery(merchant, 'A-1');
    await createDelivery(core, validOrders.deliver() as never, { apiKey: KEY_B }).catch(() => undefined);
    expect(seen.map(({ authorization }) => authorization)).toEqual([KEY_A, KEY_B]);
  });
});
