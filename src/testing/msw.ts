/**
 * `delivery-sdk/testing/msw`: the sandbox as msw request handlers, for `setupServer` (Node) and
 * `setupWorker` (browser). The one entry that imports msw, an optional peer: the sandbox itself
 * (`delivery-sdk/testing`) loads and type-checks without it.
 *
 * @module delivery-sdk/testing/msw
 */
import { type HttpHandler, HttpResponse, http } from 'msw';
import type { Sandbox } from './sandbox-api.js';

/**
 * msw handlers answering every request under `sandbox.baseUrl` as the sandbox does; requests to
 * other hosts are left to other handlers. An injected dropped connection becomes msw's network error.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createSandbox } from 'delivery-sdk/testing';
 * import { sandboxHandlers } from 'delivery-sdk/testing/msw';
 *
 * const sandbox = createSandbox();
 * const server = setupServer(...sandboxHandlers(sandbox));
 * server.listen({ onUnhandledRequest: 'bypass' });
 * ```
 */
export function sandboxHandlers(sandbox: Pick<Sandbox, 'fetch' | 'baseUrl'>): HttpHandler[] {
  const base = sandbox.baseUrl.replace(/\/+$/, '');
  const resolver = async ({ request }: { request: Request }): Promise<Response> => {
    try {
      return await sandbox.fetch(request);
    } catch (err) {
      // An injected dropped connection: msw turns this into a network error for the caller.
      if (err instanceof TypeError) return HttpResponse.error();
      throw err;
    }
  };
  return [http.all(base, resolver), http.all(`${base}/*`, resolver)];
}
