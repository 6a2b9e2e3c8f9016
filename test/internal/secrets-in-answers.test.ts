// The key never reaches what the SDK builds out of an answer, even JSON-escaped in a 2xx, nor
// what it logs, even when the caller passes it in a header of any name; and scrubbing an
// answer never recurses, however deep the answer nests.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CityNotFoundError, type Logger } from '../../src/index.js';
import { BASE, HttpResponse, http, KEY, makeClient, useFakeService } from '../support/fake-service.js';

const server = useFakeService();

/** `text` with every character written as a JSON \u escape, as a service may echo it. */
const escaped = (text: string): string => [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

const raw = (body: string, status = 200) => new HttpResponse(body, { status, headers: { 'content-type': 'application/json' } });

describe('an answer that echoes the key JSON-escaped', () => {
  it('is scrubbed from the result of a 2xx, strings and keys alike', async () => {
    server.use(http.get(`${BASE}/r`, () => raw(`{"success":true,"data":{"note":"key ${escaped(KEY)}","${escaped(KEY)}":["${escaped(KEY)}"]}}`)));
    const data = await makeClient().request({ method: 'GET', path: '/r' });
    expect(JSON.stringify(data)).not.toContain(KEY);
    expect(inspect(data, { depth: null })).toContain('[redacted]');
  });

  it('is scrubbed from a created order as deliveries.create returns it', async () => {
    server.use(http.post(`${BASE}/deliveries`, () => raw(`{"success":true,"data":{"_id":"1","trackingNumber":"7","note":"${escaped(KEY)}"}}`, 201)));
    const created = await makeClient().deliveries.create({ type: 10 } as never, { validate: false });
    expect(JSON.stringify(created)).not.toContain(KEY);
  });
});

describe('an error answer nesting 100,000 arrays', () => {
  it('still maps to its coded class when a key is set, and a GET is sent once', async () => {
    let requests = 0;
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    server.use(
      http.get(`${BASE}/r`, () => {
        requests++;
        return raw(`{"success":false,"errorCode":3001,"message":"City Not Found \\u0021","data":${deep}}`, 400);
      }),
    );
    await expect(makeClient().request({ method: 'GET', path: '/r' })).rejects.toBeInstanceOf(CityNotFoundError);
    expect(requests).toBe(1);
  });
});

describe('headers the caller sets', () => {
  it('show only allow-listed values in hooks and logs, and their values are scrubbed from answers', async () => {
    server.use(http.get(`${BASE}/r`, ({ request }) => raw(JSON.stringify({ success: false, message: `refused ${request.headers.get('x-access-key')}` }), 400)));
    const seen: unknown[] = [];
    const line = (message: string, data?: Record<string, unknown>) => seen.push({ message, data });
    const logger: Logger = { debug: line, info: line, warn: line, error: line };
    const client = makeClient({ apiKey: undefined, logger, logLevel: 'debug', hooks: { onRequest: (event) => seen.push(event) } });
    const error = await client
      .request({ method: 'GET', path: '/r' }, { headers: { 'X-Access-Key': KEY, 'X-Request-Id': 'req-123456' } })
      .catch((e: unknown) => e);
    expect(inspect(error, { depth: null })).not.toContain(KEY);
    expect(String((error as Error).message)).toContain('[redacted]');
    const shown = JSON.stringify(seen);
    expect(shown).not.toContain(KEY);
    expect(shown).toContain('"x-access-key":"[redacted]"');
    expect(shown).toContain('"x-request-id":"req-123456"');
  });
});

describe('an answer that echoes the key in an encoded form', () => {
  // A key with the characters URLs and base64 treat specially.
  const key = 'sk_live_Ab3+xY/9zQ==';
  const bytes = new TextEncoder().encode(key);
  const base64 = btoa(key);
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  const code = (char: string) => char.charCodeAt(0);
  const forms: Array<[string, string]> = [
    ['%-encoded, upper-case hex', encodeURIComponent(key)],
    ['%-encoded, lower-case hex', encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase())],
    ['%-encoded, mixed case', 'sk_live_Ab3%2bxY%2F9zQ%3d%3D'],
    ['base64', base64],
    ['base64 without padding', base64.replace(/=+$/, '')],
    ['base64url', base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')],
    ['hex', hex],
    ['hex, upper case', hex.toUpperCase()],
    ['HTML entities, decimal', [...key].map((char) => `&#${code(char)};`).join('')],
    ['HTML entities, hex, for the special characters only', key.replace(/[+/=]/g, (char) => `&#x${code(char).toString(16).toUpperCase()};`)],
    ['\\u escapes', [...key].map((char) => `\\u${code(char).toString(16).padStart(4, '0')}`).join('')],
    ['\\u escapes for the special characters only', key.replace(/[+/=]/g, (char) => `\\u${code(char).toString(16).padStart(4, '0')}`)],
  ];
  /** Everything the SDK shows of a failed call: the error (inspected and as JSON), log lines and hook events. */
  async function shownOf(answer: () => Response, headers?: Record<string, string>): Promise<string> {
    server.use(http.get(`${BASE}/r`, answer));
    const seen: unknown[] = [];
    const line = (message: string, data?: Record<string, unknown>) => seen.push({ message, data });
    const logger: Logger = { debug: line, info: line, warn: line, error: line };
    const client = makeClient({ apiKey: key, maxRetries: 0, logger, logLevel: 'debug', hooks: { onError: (event) => seen.push(event.error.message) } });
    const error = await client.request({ method: 'GET', path: '/r' }, { headers }).catch((e: unknown) => e);
    return [inspect(error, { depth: null }), JSON.stringify(error), JSON.stringify(seen)].join('\n');
  }

  it.each(forms)('%s: not in an error message, its body, logs or hooks', async (_, form) => {
    const shown = await shownOf(() => new HttpResponse(`Invalid key ${form} (see /docs?api_key=${form})`, { status: 400, headers: { 'x-echo': form } }));
    expect(shown).not.toContain(form);
    expect(shown).toContain('[redacted]');
  });

  it.each(forms)('%s: not in a RedirectError.location', async (_, form) => {
    const shown = await shownOf(() => new HttpResponse(null, { status: 302, headers: { location: `https://elsewhere.example/login?api_key=${form}` } }));
    expect(shown).not.toContain(form);
  });

  it.each(forms)('%s: not in what a 2xx resolves to', async (_, form) => {
    server.use(http.get(`${BASE}/r`, () => HttpResponse.json({ success: true, data: { echo: `key=${form}` } })));
    const data = await makeClient({ apiKey: key }).request({ method: 'GET', path: '/r' });
    expect(JSON.stringify(data)).not.toContain(form);
  });

  it('a header value the caller sets is scrubbed in its encoded forms too', async () => {
    const secret = 'tok+en/value=';
    const shown = await shownOf(() => new HttpResponse(`echo ${encodeURIComponent(secret)} ${btoa(secret)}`, { status: 400 }), { 'X-Access-Key': secret });
    expect(shown).not.toContain(encodeURIComponent(secret));
    expect(shown).not.toContain(btoa(secret));
  });

  it('text that only looks escaped is left alone', async () => {
    const shown = await shownOf(() => new HttpResponse('100% of &#38; and \\u0041 stay as they are', { status: 400 }));
    expect(shown).toContain('100% of &#38; and \\\\u0041 stay as they are');
  });
});
