// The service mocked with msw for one test file: a client pointed at it, the spec's envelopes,
// and what the client sent, recorded.
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { BulkCreationError, DeliveryClient, type DeliveryClientOptions } from '../../src/index.js';

export const BASE = 'https://api.delivery.test/v2';
export const KEY = 'sk_live_SECRET_do_not_leak_42';

/** An msw server for the file, reset after each test; unhandled requests fail the test. */
export function useMockServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

export function makeClient(options: Partial<DeliveryClientOptions> = {}): DeliveryClient {
  return new DeliveryClient({ apiKey: KEY, baseUrl: BASE, retryDelay: { base: 1, max: 5 }, ...options });
}

export function errorBody(errorCode: number | undefined, message: string) {
  return { success: false, message, ...(errorCode === undefined ? {} : { errorCode }), data: null };
}

export { HttpResponse, http };

/** A request as it went over the wire. */
export interface Sent {
  method: string;
  path: string;
  /** The raw query string, `''` when there is none. */
  search: string;
  headers: Record<string, string>;
  /** The body exactly as sent. */
  text: string;
  /** The body parsed, `undefined` when empty. */
  json: unknown;
}

export async function record(request: Request): Promise<Sent> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const text = await request.text();
  return {
    method: request.method,
    path: url.pathname.replace(/^\/v2/, ''),
    search: url.search,
    headers,
    text,
    json: text === '' ? undefined : JSON.parse(text),
  };
}

/** The spec's success envelope. */
export const ok = (data: unknown, status = 200) => HttpResponse.json({ success: true, message: 'Success', data }, { status });

/** Answers every request with `answer` and records what was sent. */
export function capture(
  server: ReturnType<typeof useMockServer>,
  method: 'get' | 'post' | 'put',
  path: string,
  answer: (sent: Sent) => Response | Promise<Response>,
) {
  const sent: Sent[] = [];
  server.use(
    http[method](`${BASE}${path}`, async ({ request }) => {
      const one = await record(request);
      sent.push(one);
      return answer(one);
    }),
  );
  return sent;
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Addresses and people as a test would copy them from the lookup lists. */
export const dropOffAddress = { city: 'Giza', districtId: 'district-dokki', firstLine: '12 Tahrir Street, 3rd floor' };
export const pickupAddress = { city: 'Cairo', districtId: 'district-zamalek', firstLine: '7 Brazil Street, Zamalek' };
export const receiver = { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' };

/** The BulkCreationError a bulk upload rejects with (a test fails when it resolves or rejects with anything else). */
export function bulkFailure(promise: Promise<unknown>): Promise<BulkCreationError> {
  return rejection(promise, BulkCreationError);
}

/** The error of class `Class` a call rejects with (the test fails when it resolves or rejects with anything else). */
export async function rejection<E extends Error>(promise: Promise<unknown>, Class: abstract new (...args: never[]) => E): Promise<E> {
  const outcome = await promise.then(
    () => new Error(`expected a ${Class.name}`),
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(Class);
  return outcome as E;
}

/**
 * A client whose `fetch` answers each request with `answer(request, index)` and keeps every
 * request sent, without msw: for tests that count what reached the service (nothing, once per 50,
 * each with its own key). Retries off unless `options` says otherwise.
 */
export function clientOnFetch(
  answer: (request: Request, index: number) => Response | Promise<Response>,
  options: Partial<DeliveryClientOptions> = {},
): { client: DeliveryClient; sent: Request[] } {
  const sent: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    sent.push(request);
    return answer(request, sent.length - 1);
  };
  return { sent, client: new DeliveryClient({ baseUrl: BASE, apiKey: KEY, fetch, maxRetries: 0, ...options }) };
}
