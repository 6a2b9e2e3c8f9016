// Every webhook body fixture (test/fixtures/real/webhooks) replayed through parseWebhookEvent and
// the Fetch handler: each is read, none is refused, what could not be read is flagged and kept.
import { describe, expect, it, vi } from 'vitest';
import { createWebhookHandler, parseWebhookEvent, type WebhookEvent } from '../../../src/webhooks/index.js';
import { WEBHOOK_FIXTURES } from '../../fixtures/real/webhooks/index.js';

const cases = WEBHOOK_FIXTURES.map((fixture) => [fixture.name, fixture] as const);

describe.each(cases)('%s', (_, fixture) => {
  it('parseWebhookEvent reads it: the three keys as strings and a number, unreadable fields flagged, the body kept in raw', () => {
    const event = parseWebhookEvent(JSON.stringify(fixture.body));
    expect(event._id).toBe(fixture.body['_id']);
    expect(event.trackingNumber).toBe(String(fixture.body['trackingNumber']));
    expect(event.state).toBe(fixture.body['state']);
    expect((event.issues ?? []).map((issue) => issue.field)).toEqual(fixture.unreadable);
    expect(event.raw).toEqual(fixture.body);
  });

  it('the handler answers 200 and hands the event to onEvent', async () => {
    const seen: WebhookEvent[] = [];
    const onError = vi.fn();
    const handler = createWebhookHandler({ onEvent: (event) => void seen.push(event), onError });
    const response = await handler(
      new Request('https://merchant.example/webhooks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fixture.body) }),
    );
    expect(response.status).toBe(200);
    expect(seen.map((event) => event.trackingNumber)).toEqual([String(fixture.body['trackingNumber'])]);
    expect(onError).not.toHaveBeenCalled();
  });
});
