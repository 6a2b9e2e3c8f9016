import { describe, expect, it } from 'vitest';
import { ServerError } from '../../src/index.js';
import { BASE, HttpResponse, http, KEY, makeClient, useFakeService } from '../support/fake-service.js';

const server = useFakeService();

describe('ky hooks of the user (kyHooks)', () => {
  it('adds a header from a beforeRequest hook to every attempt, after the SDK reported the attempt', async () => {
    const seen: Array<string | null> = [];
    let calls = 0;
    server.use(
      http.get(`${BASE}/r`, ({ request }) => {
        seen.push(request.headers.get('x-trace-id'));
        return ++calls === 1 ? HttpResponse.json({}, { status: 503 }) : HttpResponse.json({ success: true, data: 'ok' });
      }),
    );
    const reported: Array<Record<string, string>> = [];
    const client = makeClient({
      kyHooks: { beforeRequest: [(request, _options, { retryCount }) => request.headers.set('x-trace-id', `trace-${retryCount}`)] },
      hooks: { onRequest: ({ headers }) => reported.push(headers) },
    });
    await expect(client.request({ method: 'GET', path: '/r' })).resolves.toBe('ok');
    expect(seen).toEqual(['trace-0', 'trace-1']);
    expect(reported).toHaveLength(2);
    expect(JSON.stringify(reported)).not.toContain(KEY);
  });

  it('shows every answer to an afterResponse hook, retried ones included, before the SDK reads it', async () => {
    server.use(http.get(`${BASE}/r`, () => HttpResponse.json({ success: false, message: 'down' }, { status: 503 })));
    const statuses: number[] = [];
    const client = makeClient({ maxRetries: 1, kyHooks: { afterResponse: [(_request, _options, response) => void statuses.push(response.status)] } });
    await expect(client.request({ method: 'GET', path: '/r' })).rejects.toBeInstanceOf(ServerError);
    expect(statuses).toEqual([503, 503]);
  });

  it('lets an afterResponse hook replace the answer the SDK then reads', async () => {
    server.use(http.get(`${BASE}/r`, () => HttpResponse.json({ success: true, data: 'from the server' })));
    const client = makeClient({ kyHooks: { afterResponse: [() => Response.json({ success: true, data: 'from the hook' })] } });
    await expect(client.request({ method: 'GET', path: '/r' })).resolves.toBe('from the hook');
  });

  it('still turns the failure into a DeliveryError when a beforeError hook sees the HTTPError', async () => {
    server.use(http.get(`${BASE}/r`, () => HttpResponse.json({ success: false, message: 'down' }, { status: 500 })));
    const messages: string[] = [];
    const client = makeClient({
      maxRetries: 0,
      kyHooks: {
        beforeError: [
          (error) => {
            messages.push(error.message);
            return error;
          },
        ],
      },
    });
    const err = await client.request({ method: 'GET', path: '/r' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('500');
  });
});
