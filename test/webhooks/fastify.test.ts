// The Fastify recipe of docs/webhooks.md, on real Fastify: Fastify parses JSON bodies before a
// route runs, so the recipe gives the adapter the request unread (a parser that reads nothing, in a
// plugin of its own) and hijacks the reply. The key is then checked before a byte of body is read.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../src/webhooks/index.js';
import { createNodeWebhookHandler } from '../../src/webhooks/node.js';
import { webhookBody } from '../support/webhook-bodies.js';

const auth = { name: 'X-Webhook-Key', value: 'wh_live_fastify_7f3a9c' };
let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The recipe as docs/webhooks.md writes it, with a route of the app's own beside it (parsed JSON, as ever). */
async function serve(onEvent: (event: WebhookEvent) => void, maxBodyBytes = 16_384): Promise<string> {
  app = Fastify();
  const handleWebhook = createNodeWebhookHandler({ auth, maxBodyBytes, onEvent });
  await app.register(async (webhooks) => {
    webhooks.removeAllContentTypeParsers();
    webhooks.addContentTypeParser('*', (_request, _payload, done) => done(null));
    webhooks.post('/webhooks/delivery', (request, reply) => {
      reply.hijack();
      handleWebhook(request.raw, reply.raw);
    });
  });
  app.post('/orders', async (request) => ({ received: request.body }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

const post = (url: string, body: string, key = auth.value) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-webhook-key': key }, body });

describe('a Fastify webhook route (docs/webhooks.md)', () => {
  it('hands each event to onEvent and answers 200', async () => {
    const events: WebhookEvent[] = [];
    const base = await serve((event) => {
      events.push(event);
    });
    const response = await post(`${base}/webhooks/delivery`, JSON.stringify(webhookBody({ state: 45, cod: 250 })));
    expect(response.status).toBe(200);
    expect(events.map((event) => [event.state, event.cod])).toEqual([[45, 250]]);
  });

  it('refuses a wrong key with 401 and a body past maxBodyBytes with 413, handing nothing on', async () => {
    const events: WebhookEvent[] = [];
    const base = await serve((event) => {
      events.push(event);
    }, 1_000);
    expect((await post(`${base}/webhooks/delivery`, JSON.stringify(webhookBody()), 'wrong-key')).status).toBe(401);
    expect((await post(`${base}/webhooks/delivery`, JSON.stringify({ ...webhookBody(), padding: 'x'.repeat(5_000) }))).status).toBe(413);
    expect(events).toEqual([]);
  });

  it("leaves the app's other routes parsing JSON as before", async () => {
    const base = await serve(() => undefined);
    const response = await fetch(`${base}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":7}' });
    expect(await response.json()).toEqual({ received: { id: 7 } });
  });
});
