import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { DeliveryClient, type DeliveryClientOptions } from '../../src/index.js';

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
