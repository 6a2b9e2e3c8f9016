import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthenticationError, ConfigurationError, ConnectionError, DeliveryClient, type Logger, ValidationError } from '../../src/index.js';

const KEY = 'sk_live_SECRET_do_not_leak_42';

/** A fetch that records the requests it was given and answers from `answer`. */
function recordingFetch(answer: () => Response = () => Response.json({ success: true, data: {} })) {
  const calls: Array<{ url: string; headers: Headers; body: string }> = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    calls.push({ url: request.url, headers: request.headers, body: await request.text() });
    return answer();
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

afterEach(() => vi.unstubAllEnvs());

describe('baseUrl', () => {
  it('is required, with a message that says what it should be', () => {
    expect(() => new DeliveryClient({} as never)).toThrow(/needs `baseUrl`.*\/v2/);
    expect(() => new DeliveryClient({ baseUrl: '' })).toThrow(ConfigurationError);
  });

  it('must be an absolute http(s) URL', () => {
    expect(() => new DeliveryClient({ baseUrl: 'api.example.com/v2' })).toThrow(/not an absolute URL/);
    expect(() => new DeliveryClient({ baseUrl: 'ftp://api.example.com/v2' })).toThrow(/https/);
  });

  it('refuses http:// except to loopback or when explicitly allowed', () => {
    expect(() => new DeliveryClient({ baseUrl: 'http://api.example.com/v2' })).toThrow(/unencrypted/);
    expect(new DeliveryClient({ baseUrl: 'http://127.0.0.1:4010/v2' }).baseUrl).toBe('http://127.0.0.1:4010/v2');
    expect(new DeliveryClient({ baseUrl: 'http://localhost:4010/v2/' }).baseUrl).toBe('http://localhost:4010/v2');
    expect(new DeliveryClient({ baseUrl: 'http://[::1]:4010/v2' }).baseUrl).toBe('http://[::1]:4010/v2');
    expect(new DeliveryClient({ baseUrl: 'http://10.0.0.5/v2', allowInsecureHttp: true }).baseUrl).toBe('http://10.0.0.5/v2');
  });

  it('refuses credentials in the URL', () => {
    expect(() => new DeliveryClient({ baseUrl: 'https://user:pw@api.example.com/v2' })).toThrow(ConfigurationError);
  });

  it('is accepted without /v2 (a proxy may add it), with a warning through the logger', () => {
    const warnings: string[] = [];
    const logger: Logger = { debug: () => undefined, info: () => undefined, warn: (message) => warnings.push(message), error: () => undefined };
    expect(new DeliveryClient({ baseUrl: 'https://api.example.com/delivery', logger }).baseUrl).toBe('https://api.example.com/delivery');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/does not end in \/v2/);
    new DeliveryClient({ baseUrl: 'https://api.example.com/v2/', logger });
    expect(warnings).toHaveLength(1);
  });
});

describe('authentication header', () => {
  it('sends the key as the raw Authorization header by default', async () => {
    const { calls, fetch } = recordingFetch();
    await new DeliveryClient({ apiKey: KEY, baseUrl: 'https://api.example.com/v2', fetch }).request({ method: 'GET', path: '/x' });
    expect(calls[0]?.headers.get('Authorization')).toBe(KEY);
  });

  it('takes another header name and a scheme when configured', async () => {
    const { calls, fetch } = recordingFetch();
    const client = new DeliveryClient({ apiKey: KEY, baseUrl: 'https://api.example.com/v2', fetch, auth: { headerName: 'X-Api-Key', scheme: 'Bearer' } });
    await client.request({ method: 'GET', path: '/x' });
    expect(calls[0]?.headers.get('X-Api-Key')).toBe(`Bearer ${KEY}`);
    expect(calls[0]?.headers.has('Authorization')).toBe(false);
  });

  it('reads the key from DELIVERY_API_KEY when none is given', async () => {
    vi.stubEnv('DELIVERY_API_KEY', 'from-env');
    const { calls, fetch } = recordingFetch();
    await new DeliveryClient({ baseUrl: 'https://api.example.com/v2', fetch }).request({ method: 'GET', path: '/x' });
    expect(calls[0]?.headers.get('Authorization')).toBe('from-env');
  });

  it('sends no Authorization header without a key (lookups are public)', async () => {
    vi.stubEnv('DELIVERY_API_KEY', '');
    const { calls, fetch } = recordingFetch();
    await new DeliveryClient({ baseUrl: 'https://api.example.com/v2', fetch }).request({ method: 'GET', path: '/cities' });
    expect(calls[0]?.headers.has('Authorization')).toBe(false);
  });

  it('refuses an explicit empty apiKey (a missing variable, most likely) instead of calling without a key', () => {
    vi.stubEnv('DELIVERY_API_KEY', 'from-env');
    expect(() => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: '' })).toThrow(ConfigurationError);
    expect(() => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: '' })).toThrow(
      /`apiKey` is empty: pass your API key, or leave `apiKey` out/,
    );
  });
});

describe('headers and bodies', () => {
  it('merges client and per-call headers and sends JSON with its content type', async () => {
    const { calls, fetch } = recordingFetch();
    const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2', fetch, headers: { 'x-app': 'shop' } });
    await client.request({ method: 'POST', path: '/x', query: { apiVersion: 1, skip: undefined }, body: { a: 1 } }, { headers: { 'x-trace': 't1' } });
    const call = calls[0];
    expect(call?.url).toBe('https://api.example.com/v2/x?apiVersion=1');
    expect(call?.body).toBe('{"a":1}');
    expect(Object.fromEntries(call?.headers ?? [])).toMatchObject({ 'x-app': 'shop', 'x-trace': 't1', 'content-type': 'application/json' });
  });

  it('lets a header given again in another case replace the first, never join it', async () => {
    const { calls, fetch } = recordingFetch();
    const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2', fetch, headers: { Accept: 'application/vnd.shop+json', 'X-App': 'shop' } });
    await client.request(
      { method: 'POST', path: '/x', body: { a: 1 } },
      { headers: { 'x-app': 'checkout', 'Content-Type': 'application/json; charset=utf-8' } },
    );
    expect(Object.fromEntries(calls[0]?.headers ?? [])).toMatchObject({
      accept: 'application/vnd.shop+json',
      'x-app': 'checkout',
      'content-type': 'application/json; charset=utf-8',
    });
  });

  it('names a logLevel outside its choices as given', () => {
    expect(() => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', logLevel: 'verbose' as never })).toThrow(
      "DeliveryClient `logLevel`: expected one of debug, info, warn, error, off, received 'verbose'.",
    );
  });

  it('never shows a refused key or header value, which may be a credential', async () => {
    const refusals = [
      () => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: 'k3y-secret\nx' }),
      () => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: 987654321 as never }),
      () => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', headers: { authorization: 'k3y-secret\r\n' } }),
      () => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', headers: { authorization: 987654321 as never } }),
    ];
    for (const refusal of refusals) {
      expect(refusal).toThrow(ConfigurationError);
      expect(refusal).not.toThrow(/k3y-secret|987654321/);
    }
    const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2', fetch: recordingFetch().fetch });
    for (const options of [{ apiKey: 987654321 }, { apiKey: 'k3y-secret\n' }, { headers: { 'x-key': 987654321 } }]) {
      const error = await client.request({ method: 'GET', path: '/x' }, options as never).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).not.toMatch(/k3y-secret|987654321/);
    }
  });

  it('refuses header values with CR or LF before sending anything', async () => {
    const { calls, fetch } = recordingFetch();
    expect(() => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', fetch, headers: { 'x-a': 'a\r\nInjected: 1' } })).toThrow(ConfigurationError);
    expect(() => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: 'k\nx' })).toThrow(ConfigurationError);
    const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2', fetch });
    await expect(client.request({ method: 'GET', path: '/x' }, { headers: { 'x-a': 'a\nb' } })).rejects.toBeInstanceOf(ConfigurationError);
    expect(calls).toHaveLength(0);
  });

  it('refuses a body that cannot be JSON with a ValidationError instead of a TypeError', async () => {
    const { calls, fetch } = recordingFetch();
    const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2', fetch });
    await expect(client.request({ method: 'POST', path: '/x', body: { n: 10n } })).rejects.toBeInstanceOf(ValidationError);
    expect(calls).toHaveLength(0);
  });

  it('only sends to paths below baseUrl', async () => {
    const { calls, fetch } = recordingFetch();
    const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: KEY, fetch });
    for (const path of ['https://evil.example/steal', '//evil.example/x', 'deliveries']) {
      await expect(client.request({ method: 'GET', path })).rejects.toBeInstanceOf(ValidationError);
    }
    expect(calls).toHaveLength(0);
  });
});

describe('fetch', () => {
  it('without one, is the global fetch of each request: a mock installed after the client is built (msw) still sees the calls', async () => {
    const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: KEY });
    const { calls, fetch } = recordingFetch(() => Response.json({ success: true, data: { seen: true } }));
    vi.stubGlobal('fetch', fetch);
    try {
      await expect(client.request({ method: 'GET', path: '/x' })).resolves.toEqual({ seen: true });
    } finally {
      vi.unstubAllGlobals();
    }
    expect(calls.map((call) => call.url)).toEqual(['https://api.example.com/v2/x']);
  });

  it('is called as a plain function, so a browser fetch passed unbound works', async () => {
    const receivers: unknown[] = [];
    const { fetch } = recordingFetch();
    const unbound = function (this: unknown, input: string | URL | Request, init?: RequestInit) {
      receivers.push(this);
      return fetch(input, init);
    };
    await new DeliveryClient({ baseUrl: 'https://api.example.com/v2', fetch: unbound as typeof globalThis.fetch }).request({ method: 'GET', path: '/x' });
    expect(receivers).toEqual([undefined]);
  });

  it('that is not a function is a ConfigurationError when the client is built', () => {
    expect(() => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', fetch: 'fetch' as never })).toThrow(
      /`fetch`: expected a function, received 'fetch'/,
    );
  });

  it('missing everywhere is a ConfigurationError that says to pass one', () => {
    vi.stubGlobal('fetch', undefined);
    try {
      expect(() => new DeliveryClient({ baseUrl: 'https://api.example.com/v2' })).toThrow(/No fetch implementation/);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('connection failures', () => {
  it('repeats even a POST when the connection was refused, since nothing was sent', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
      });
    });
    const retries: number[] = [];
    const client = new DeliveryClient({
      baseUrl: `http://127.0.0.1:${port}/v2`,
      maxRetries: 2,
      retryDelay: { base: 1, max: 2 },
      hooks: { onRetry: (event) => retries.push(event.attempt) },
    });
    const err = await client.request({ method: 'POST', path: '/deliveries', body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as Error).message).toMatch(/ECONNREFUSED|refused/i);
    expect(retries).toEqual([1, 2]);
  });
});

describe('secrets', () => {
  it('never shows the key in errors, their JSON, util.inspect, the client, or the logs', async () => {
    const lines: string[] = [];
    const logger: Logger = {
      debug: (m, d) => lines.push(m + JSON.stringify(d ?? {})),
      info: (m, d) => lines.push(m + JSON.stringify(d ?? {})),
      warn: (m, d) => lines.push(m + JSON.stringify(d ?? {})),
      error: (m, d) => lines.push(m + JSON.stringify(d ?? {})),
    };
    const hookEvents: unknown[] = [];
    const { fetch } = recordingFetch(() => Response.json({ success: false, message: 'Unauthorized', data: null }, { status: 401 }));
    const client = new DeliveryClient({
      apiKey: KEY,
      baseUrl: 'https://api.example.com/v2',
      fetch,
      logger,
      logLevel: 'debug',
      hooks: { onRequest: (e) => hookEvents.push(e), onError: (e) => hookEvents.push(e) },
    });
    const err: Error = await client.request({ method: 'GET', path: '/x' }).then(
      () => new Error('expected a failure'),
      (e: unknown) => e as Error,
    );
    // The error must be the 401 itself: a placeholder would carry no key whatever the SDK does.
    expect(err).toBeInstanceOf(AuthenticationError);
    const surfaces = [
      err.message,
      String(err.stack),
      err.toString(),
      JSON.stringify(err),
      inspect(err, { depth: 10 }),
      inspect(client, { depth: 10 }),
      JSON.stringify(client),
      lines.join('\n'),
      inspect(hookEvents, { depth: 10 }),
    ];
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).toContain('[redacted]');
    for (const surface of surfaces) expect(surface).not.toContain(KEY);
  });
});
