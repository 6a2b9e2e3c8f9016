import { expect } from 'vitest';
import { BulkCreationError } from '../../src/index.js';
import { BASE, errorBody, HttpResponse, http, KEY, makeClient, useMockServer } from '../core/helpers.js';

export { BASE, errorBody, HttpResponse, http, KEY, makeClient, useMockServer };

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
export const receiver = { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' };

/** The BulkCreationError a bulk upload rejects with (a test fails when it resolves or rejects with anything else). */
export async function bulkFailure(promise: Promise<unknown>): Promise<BulkCreationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BulkCreationError);
  return error as BulkCreationError;
}
