import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  createCodedError,
  ErrorCode,
  isDeliveryError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseShapeError,
  ServerError,
} from '../../src/index.js';
import { BASE, errorBody, HttpResponse, http, makeClient, useFakeService } from '../support/fake-service.js';

const server = useFakeService();

describe('successful answers', () => {
  it('unwraps the { success, message, data } envelope', async () => {
    server.use(http.get(`${BASE}/thing`, () => HttpResponse.json({ success: true, message: 'ok', data: { id: 7 } })));
    await expect(makeClient().request({ method: 'GET', path: '/thing' })).resolves.toEqual({ id: 7 });
  });

  it('unwraps the envelope when success is the string "true", as the live service sends it', async () => {
    server.use(http.get(`${BASE}/thing`, () => HttpResponse.json({ success: 'true', message: 'ok', data: [1, 2] })));
    await expect(makeClient().request({ method: 'GET', path: '/thing' })).resolves.toEqual([1, 2]);
  });

  it('returns a body without the envelope as it is', async () => {
    server.use(http.get(`${BASE}/thing`, () => HttpResponse.json([{ _id: 'a' }])));
    await expect(makeClient().request({ method: 'GET', path: '/thing' })).resolves.toEqual([{ _id: 'a' }]);
  });

  it('offers the HTTP response through withResponse()', async () => {
    server.use(http.post(`${BASE}/thing`, () => HttpResponse.json({ success: true, data: { ok: 1 } }, { status: 201, headers: { 'x-request-id': 'r-1' } })));
    const { data, response } = await makeClient().request({ method: 'POST', path: '/thing', body: {} }).withResponse();
    expect(data).toEqual({ ok: 1 });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe('r-1');
  });

  it('raises a ResponseShapeError for a 2xx body that is not JSON', async () => {
    server.use(http.post(`${BASE}/thing`, () => new HttpResponse('{"success":tru', { status: 200 })));
    const err = await makeClient()
      .request({ method: 'POST', path: '/thing', body: {} })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect((err as ResponseShapeError).status).toBe(200);
  });

  it('treats a 2xx body with success: false as the error it describes', async () => {
    server.use(http.post(`${BASE}/deliveries`, () => HttpResponse.json(errorBody(1073, 'No location'), { status: 200 })));
    const err = await makeClient()
      .request({ method: 'POST', path: '/deliveries', body: {} })
      .catch((e: unknown) => e);
    expect(isDeliveryError(err, ErrorCode.BusinessLocationRequired)).toBe(true);
  });
});

describe('error answers', () => {
  it.each(Object.values(ErrorCode))('maps errorCode %i to its own class, marked as from the server', async (code) => {
    server.use(http.post(`${BASE}/deliveries`, () => HttpResponse.json(errorBody(code, `server says ${code}`), { status: 400 })));
    const err = await makeClient()
      .request({ method: 'POST', path: '/deliveries', body: {} })
      .catch((e: unknown) => e);
    const expected = createCodedError(code, { source: 'client' });
    expect(err).toBeInstanceOf(expected.constructor);
    expect(err).toMatchObject({ errorCode: code, source: 'server', status: 400, message: `server says ${code}` });
  });

  it('maps an errorCode to its class whatever the HTTP status', async () => {
    server.use(http.get(`${BASE}/cities/x/districts`, () => HttpResponse.json(errorBody(3001, 'City Not Found'), { status: 404 })));
    const err = await makeClient()
      .request({ method: 'GET', path: '/cities/x/districts' })
      .catch((e: unknown) => e);
    expect(isDeliveryError(err, ErrorCode.CityNotFound)).toBe(true);
    expect(err).not.toBeInstanceOf(NotFoundError);
  });

  it('keeps an unknown errorCode on an ApiError of the status', async () => {
    server.use(http.post(`${BASE}/deliveries`, () => HttpResponse.json(errorBody(4242, 'Something new'), { status: 422 })));
    const err = await makeClient()
      .request({ method: 'POST', path: '/deliveries', body: {} })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 422, errorCode: 4242 });
    expect(isDeliveryError(err, 4242)).toBe(true);
    expect((err as Error).message).toContain('Something new');
  });

  it.each([
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [429, RateLimitError],
    [500, ServerError],
    [503, ServerError],
  ] as const)('maps status %i without a code to %o', async (status, ErrorClass) => {
    server.use(http.post(`${BASE}/thing`, () => HttpResponse.json({ success: false, message: 'nope', data: null }, { status })));
    const err = await makeClient({ maxRetries: 0 })
      .request({ method: 'POST', path: '/thing', body: {} })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ErrorClass);
    expect(err).toMatchObject({ status, request: { method: 'POST', url: `${BASE}/thing` } });
  });

  it('tells what to check on a 401 (the key) and a 404 (baseUrl and the ids in the path)', async () => {
    server.use(http.get(`${BASE}/thing`, () => HttpResponse.json({ success: false, message: 'Unauthorized' }, { status: 401 })));
    server.use(http.get(`${BASE}/missing`, () => HttpResponse.json({ success: false, message: 'Not found' }, { status: 404 })));
    const client = makeClient({ maxRetries: 0 });
    await expect(client.request({ method: 'GET', path: '/thing' })).rejects.toThrow(/Unauthorized; check the client's `apiKey` \(or DELIVERY_API_KEY\)$/);
    await expect(client.request({ method: 'GET', path: '/missing' })).rejects.toThrow(/Not found; check `baseUrl` \(the API's root\) and the ids in the path$/);
  });

  it('turns an HTML 502 into a ServerError with a short excerpt of the page', async () => {
    const page = `<html><head><title>502 Bad Gateway</title></head><body>${'x'.repeat(5000)}</body></html>`;
    server.use(http.get(`${BASE}/thing`, () => new HttpResponse(page, { status: 502, headers: { 'content-type': 'text/html' } })));
    const err = await makeClient({ maxRetries: 0 })
      .request({ method: 'GET', path: '/thing' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect((err as Error).message).toContain('502 Bad Gateway');
    expect((err as Error).message.length).toBeLessThan(400);
  });

  it('says so when an error body is empty', async () => {
    server.use(http.get(`${BASE}/thing`, () => new HttpResponse(null, { status: 404 })));
    const err = await makeClient()
      .request({ method: 'GET', path: '/thing' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toContain('HTTP 404');
  });

  it('reads Retry-After in seconds and as an HTTP date', async () => {
    server.use(http.get(`${BASE}/s`, () => HttpResponse.json({}, { status: 429, headers: { 'retry-after': '7' } })));
    const inSeconds = await makeClient({ maxRetries: 0 })
      .request({ method: 'GET', path: '/s' })
      .catch((e: unknown) => e);
    expect((inSeconds as RateLimitError).retryAfter).toBe(7000);

    const at = new Date(Date.now() + 30_000).toUTCString();
    server.use(http.get(`${BASE}/d`, () => HttpResponse.json({}, { status: 429, headers: { 'retry-after': at } })));
    const asDate = await makeClient({ maxRetries: 0 })
      .request({ method: 'GET', path: '/d' })
      .catch((e: unknown) => e);
    expect((asDate as RateLimitError).retryAfter).toBeGreaterThan(25_000);
    expect((asDate as RateLimitError).retryAfter).toBeLessThanOrEqual(30_000);
  });
});
