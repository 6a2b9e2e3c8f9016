import { http, HttpResponse, type HttpHandler } from 'msw';

/**
 * msw handlers answering every request under `baseUrl` with the sandbox's fetch function.
 * The only module that imports msw; the sandbox loads it on `sandbox.handlers()`.
 */
export function createSandboxHandlers(fetchFn: (request: Request) => Promise<Response>, baseUrl: string): HttpHandler[] {
  const base = baseUrl.replace(/\/+$/, '');
  const resolver = async ({ request }: { request: Request }): Promise<Response> => {
    try {
      return await fetchFn(request);
    } catch (err) {
      // An injected dropped connection: msw turns this into a network error for the caller.
      if (err instanceof TypeError) return HttpResponse.error();
      throw err;
    }
  };
  return [http.all(base, resolver), http.all(`${base}/*`, resolver)];
}
