// Every call stays below baseUrl's path: a raw path that resolves elsewhere, and an id that is
// empty, `.` or `..` in any encoding, are refused with a ValidationError naming the argument, and
// nothing is sent (the key goes wherever the URL points).
import { describe, expect, it } from 'vitest';
import { DeliveryClient, ValidationError } from '../../src/index.js';
import { rejection } from '../support/fake-service.js';

const BASE = 'https://api.example.com/v2';

function recordingClient() {
  const sent: string[] = [];
  const fetch = (async (input: Request) => {
    sent.push(`${input.method} ${new URL(input.url).pathname}`);
    return Response.json({ success: true, data: [] });
  }) as unknown as typeof globalThis.fetch;
  return { client: new DeliveryClient({ baseUrl: BASE, apiKey: 'sk_live_key_for_paths', fetch, cache: false }), sent };
}

const refusal = (call: Promise<unknown>): Promise<ValidationError> => rejection(call, ValidationError);

describe('client.request({ path })', () => {
  it.each(['/../../x', '/%2e%2e/x', '/..\\x', '/.%2E/x', '/v2/../../admin', '/deliveries/../../admin', '/%2E%2E/%2e%2e/admin', '/x/..%2f..%2f../y'])(
    'refuses %s, which resolves outside /v2',
    async (path) => {
      const { client, sent } = recordingClient();
      for (const method of ['GET', 'PUT'] as const) {
        const error = await refusal(client.request({ method, path, body: method === 'PUT' ? { a: 1 } : undefined }));
        expect(error.issues.map((issue) => issue.path)).toEqual([['path']]);
      }
      expect(sent).toEqual([]);
    },
  );

  it.each([
    ['/deliveries', 'GET /v2/deliveries'],
    ['/cities/a..b/zones', 'GET /v2/cities/a..b/zones'],
    ['/deliveries/x/../y', 'GET /v2/deliveries/y'],
    ['/...', 'GET /v2/...'],
  ])('sends %s, which stays below /v2', async (path, expected) => {
    const { client, sent } = recordingClient();
    await client.request({ method: 'GET', path });
    expect(sent).toEqual([expected]);
  });
});

describe('ids in a path', () => {
  const DOT_SEGMENTS = ['.', '..', '%2e', '%2E%2e', '.%2e', '%252e%252e', ' .. ', '', '   '];

  it.each(DOT_SEGMENTS)('lookup.zones and lookup.districts refuse the city id %j, naming cityId', async (cityId) => {
    const { client, sent } = recordingClient();
    for (const call of [client.lookup.zones(cityId), client.lookup.districts(cityId)]) {
      const error = await refusal(call);
      expect(error.issues.map((issue) => issue.path)).toEqual([['cityId']]);
    }
    expect(sent).toEqual([]);
  });

  it.each(DOT_SEGMENTS)('businesses.updatePickupLocations refuses the business id %j, naming businessId, and sends no body', async (businessId) => {
    const { client, sent } = recordingClient();
    const error = await refusal(
      client.businesses.updatePickupLocations(
        businessId,
        [{ locationName: 'Warehouse', districtId: 'district-eg-giza-dokki', firstLine: '5 Makram Ebeid Street' }],
        { validate: false },
      ),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual([['businessId']]);
    expect(sent).toEqual([]);
  });

  it('keeps any other id, encoded, below its resource', async () => {
    const { client, sent } = recordingClient();
    for (const cityId of ['city-eg-cairo', '...', 'a/../b', '%2e%2e%2f', '..x']) await client.lookup.zones(cityId);
    expect(sent).toEqual([
      'GET /v2/cities/city-eg-cairo/zones',
      'GET /v2/cities/.../zones',
      'GET /v2/cities/a%2F..%2Fb/zones',
      'GET /v2/cities/%252e%252e%252f/zones',
      'GET /v2/cities/..x/zones',
    ]);
  });
});
