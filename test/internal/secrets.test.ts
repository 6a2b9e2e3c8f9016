// The API key and the transport rules. test/internal/client-config.test.ts already checks a 401 of
// client.request(), the basic http:// rule and CR/LF in client, per-call and key headers; this
// file covers every other way a call can fail, over real HTTP, and what it left out.
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BulkCreationError,
  ConfigurationError,
  DeliveryClient,
  type DeliveryClientOptions,
  DeliveryError,
  DeliveryType,
  type Logger,
} from '../../src/index.js';
import { createSandbox, type Sandbox, type SandboxServer } from '../../src/testing/index.js';
import { verifyWebhookHeaders } from '../../src/webhooks/index.js';

const KEY = 'sk_live_SECRET_do_not_leak_42';
const dropOffAddress = { city: 'Giza', districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street, 3rd floor' };
const order = { type: DeliveryType.Deliver, dropOffAddress, cod: 250 } as const;

/** Every way an error is commonly turned into text: logs, error trackers, JSON APIs, consoles. */
function renderings(error: unknown): Record<string, string> {
  const e = error as Error;
  return {
    message: e.message,
    stack: String(e.stack),
    toString: String(e),
    json: JSON.stringify(e),
    inspect: inspect(e, { depth: Number.POSITIVE_INFINITY }),
    inspectHidden: inspect(e, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
  };
}

function expectKeyAbsent(what: string, text: string): void {
  expect(text.includes(KEY), `${what} shows the key:\n${text.slice(0, 2000)}`).toBe(false);
}

/** A client that records everything its logger and hooks were given. */
function observedClient(options: Partial<DeliveryClientOptions> & { baseUrl: string }) {
  const seen: unknown[] = [];
  const log = (level: string) => (message: string, data?: Record<string, unknown>) => seen.push({ level, message, data });
  const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
  const client = new DeliveryClient({
    apiKey: KEY,
    logger,
    logLevel: 'debug',
    maxRetries: 1,
    retryDelay: { base: 1, max: 2 },
    hooks: {
      onRequest: (event) => seen.push({ hook: 'onRequest', event }),
      onResponse: (event) => seen.push({ hook: 'onResponse', event }),
      onRetry: (event) => seen.push({ hook: 'onRetry', event }),
      onError: (event) => seen.push({ hook: 'onError', event }),
    },
    ...options,
  });
  return { client, seen };
}

async function failureOf(call: () => Promise<unknown>): Promise<DeliveryError> {
  const outcome = await call().then(
    () => new Error('expected a failure'),
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(DeliveryError);
  return outcome as DeliveryError;
}

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

describe('the API key never shows in an error or in what hooks and the logger receive', () => {
  let sandbox: Sandbox;
  let server: SandboxServer;
  beforeAll(async () => {
    sandbox = createSandbox({ apiKey: 'the-right-key' });
    server = await sandbox.listen();
  });
  afterAll(() => sandbox.close());

  const auths: Array<[string, DeliveryClientOptions['auth']]> = [
    ['Authorization: <key>', undefined],
    ['X-Api-Key: Bearer <key>', { headerName: 'X-Api-Key', scheme: 'Bearer' }],
  ];

  /** One failing call per way of failing, all over HTTP to the sandbox (or to a closed port). */
  const failures: Array<[string, string, (client: DeliveryClient, sandbox: Sandbox) => Promise<unknown>, Partial<DeliveryClientOptions>?]> = [
    ['401 (a wrong key)', 'AuthenticationError', (client) => client.deliveries.create(order)],
    [
      '503 (retried, then given up)',
      'ServerError',
      (client, box) => (box.injectFaults({ rate: 1, kinds: ['unavailable'] }), client.lookup.cities({ countryId: 'eg' })),
    ],
    [
      '429 with Retry-After',
      'RateLimitError',
      (client, box) => (box.injectFaults({ rate: 1, kinds: ['rate-limit'], retryAfterSeconds: 0.001 }), client.deliveries.create(order)),
    ],
    [
      'a timeout of a POST',
      'TimeoutError',
      (client, box) => (box.injectFaults({ rate: 1, kinds: ['slow'], slowMs: 200 }), client.deliveries.create(order)),
      { timeout: 20 },
    ],
    [
      'a timeout of a GET',
      'TimeoutError',
      (client, box) => (box.injectFaults({ rate: 1, kinds: ['slow'], slowMs: 200 }), client.lookup.zones('city-eg-cairo')),
      { timeout: 20 },
    ],
    ['a connection reset', 'ConnectionError', (client, box) => (box.injectFaults({ rate: 1, kinds: ['drop-after'] }), client.lookup.districts('city-eg-giza'))],
    [
      'a truncated 2xx body',
      'ResponseShapeError',
      (client, box) => (box.injectFaults({ rate: 1, kinds: ['malformed'] }), client.lookup.cities({ countryId: 'eg' })),
    ],
    ['a rule broken before sending', 'CodLimitExceededError', (client) => client.deliveries.create({ ...order, cod: 45_000 })],
    [
      'a bulk upload refused chunk by chunk',
      'BulkCreationError',
      (client) => client.deliveries.createBulk([order, order, order], { chunkSize: 1, validate: false }),
    ],
    ['an abort', 'RequestAbortedError', (client) => client.lookup.cities({ countryId: 'eg' }, { signal: AbortSignal.abort(new Error('user left')) })],
  ];

  for (const [authName, auth] of auths) {
    it.each(failures)(`${authName}: %s`, async (_, expected, call, extra) => {
      const { client, seen } = observedClient({ baseUrl: server.baseUrl, auth, cache: false, ...extra });
      const error = await failureOf(() => call(client, sandbox));
      sandbox.clearFaults();
      expect(error.name).toBe(expected);
      for (const [how, text] of Object.entries(renderings(error))) expectKeyAbsent(`error ${how}`, text);
      if (error instanceof BulkCreationError)
        for (const failed of error.failed) expectKeyAbsent('a bulk failure', inspect(failed, { depth: Number.POSITIVE_INFINITY }));
      expectKeyAbsent('hooks and logs', inspect(seen, { depth: Number.POSITIVE_INFINITY }));
      expectKeyAbsent('hooks and logs as JSON', JSON.stringify(seen));
    });
  }

  it.each([
    ['client `headers`', { headers: { 'X-Api-Key': KEY } }, {}],
    ['client `headers` as a session token', { headers: { 'X-Session-Token': KEY } }, {}],
    ['per-call `headers`', {}, { headers: { authorization: `Bearer ${KEY}` } }],
  ])('a key passed in %s rather than apiKey is redacted in hooks and logs too', async (_, clientOptions, callOptions) => {
    const { client, seen } = observedClient({ baseUrl: `http://127.0.0.1:${await closedPort()}/v2`, apiKey: undefined, maxRetries: 0, ...clientOptions });
    await failureOf(() => client.lookup.cities({ countryId: 'eg' }, callOptions));
    const requests = seen.filter((entry) => (entry as { hook?: string }).hook === 'onRequest');
    expect(requests).toHaveLength(1);
    expect(JSON.stringify(requests)).toContain('[redacted]');
    expectKeyAbsent('hooks and logs', inspect(seen, { depth: Number.POSITIVE_INFINITY }));
  });

  it('a refused connection, the key coming from DELIVERY_API_KEY', async () => {
    const previous = process.env['DELIVERY_API_KEY'];
    process.env['DELIVERY_API_KEY'] = KEY;
    try {
      const { client, seen } = observedClient({ baseUrl: `http://127.0.0.1:${await closedPort()}/v2`, apiKey: undefined });
      const error = await failureOf(() => client.deliveries.create(order, { validate: false }));
      expect(error.name).toBe('ConnectionError');
      // The hooks saw the request: the key was there to leak.
      expect(seen.some((entry) => (entry as { hook?: string }).hook === 'onRequest')).toBe(true);
      for (const [how, text] of Object.entries(renderings(error))) expectKeyAbsent(`error ${how}`, text);
      expectKeyAbsent('hooks and logs', inspect(seen, { depth: Number.POSITIVE_INFINITY }));
    } finally {
      if (previous === undefined) delete process.env['DELIVERY_API_KEY'];
      else process.env['DELIVERY_API_KEY'] = previous;
    }
  });

  it('a key that cannot be a header value is refused without being echoed', () => {
    const broken = `${KEY}\r\nX-Injected: 1`;
    const error = (() => {
      try {
        new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: broken });
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    for (const [how, text] of Object.entries(renderings(error))) expectKeyAbsent(`error ${how}`, text);
  });
});

describe('a key the service echoes back is scrubbed from everything built out of its answer', () => {
  /** Every credential the request carried, as the service might repeat it. */
  const echoed = (headers: IncomingHttpHeaders): string[] =>
    ['authorization', 'x-api-key'].flatMap((name) => (typeof headers[name] === 'string' ? [headers[name]] : []));
  /** Answers that repeat the credentials in each place an answer has: body text, JSON strings and keys, escapes, headers, status text, Location. */
  const ANSWERS: Array<[string, string, (sent: string[]) => { status: number; statusMessage?: string; headers?: Record<string, string>; body: string }]> = [
    [
      'a 401 whose message quotes the key',
      'AuthenticationError',
      (sent) => ({ status: 401, body: JSON.stringify({ success: false, message: `Invalid API key ${sent.join(' / ')}`, data: { key: sent[0] } }) }),
    ],
    [
      'a 400 with a validator array naming it',
      'InvalidRequestError',
      (sent) => ({
        status: 400,
        body: JSON.stringify([{ message: `"apiKey" ${sent[0]} is not allowed`, path: ['apiKey', String(sent[0])], type: 'any.unknown' }]),
      }),
    ],
    [
      'a 403 with the key as a JSON key and in \\u escapes',
      'PermissionDeniedError',
      (sent) => ({
        status: 403,
        body: `{"success":false,"message":"denied: ${[...String(sent[0])].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}","data":{${JSON.stringify(String(sent[0]))}:1}}`,
      }),
    ],
    [
      'a 503 in plain text',
      'ServerError',
      (sent) => ({
        status: 503,
        statusMessage: `Down for ${sent[0]}`,
        headers: { 'x-echo': String(sent[0]), 'content-type': 'text/plain' },
        body: `upstream refused ${sent.join(' ')}`,
      }),
    ],
    [
      'a coded error (3007) quoting it',
      'CodLimitExceededError',
      (sent) => ({
        status: 400,
        headers: { 'x-request-key': String(sent[0]) },
        body: JSON.stringify({ success: false, errorCode: 3007, message: `cod too high for ${sent[0]}` }),
      }),
    ],
    ['a 2xx error envelope', 'ApiError', (sent) => ({ status: 200, body: JSON.stringify({ success: false, message: `key ${sent[0]} suspended` }) })],
    [
      'a redirect whose Location carries it',
      'RedirectError',
      (sent) => ({
        status: 302,
        headers: { location: `https://login.example/?key=${encodeURIComponent(String(sent[0])).replace(/%20/g, ' ')}&raw=${sent[0]}` },
        body: '',
      }),
    ],
  ];
  const CONFIGS: Array<[string, Partial<DeliveryClientOptions>, { headers?: Record<string, string> }?]> = [
    ['Authorization: <key>', {}],
    ['X-Api-Key: <key>', { auth: { headerName: 'X-Api-Key' } }],
    ['Authorization: Bearer <key>', { auth: { scheme: 'Bearer' } }],
    ['the key in client `headers`', { apiKey: undefined, headers: { 'X-Api-Key': KEY } }],
    ['the key in per-call `headers`', { apiKey: undefined }, { headers: { authorization: `Token ${KEY}` } }],
  ];

  let answer: (sent: string[]) => { status: number; statusMessage?: string; headers?: Record<string, string>; body: string } = () => ({
    status: 204,
    body: '',
  });
  let requests = 0;
  const server = createHttpServer((req, res) => {
    requests++;
    const sent = echoed(req.headers);
    expect(sent.join(' '), 'the request carried the key').toContain(KEY);
    const { status, statusMessage, headers = {}, body } = answer(sent);
    req.resume();
    res.writeHead(status, statusMessage ?? '', { 'content-type': 'application/json', ...headers }).end(body);
  });
  let baseUrl = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  for (const [configName, clientOptions, callOptions] of CONFIGS) {
    it.each(ANSWERS)(`${configName}: %s`, async (_, expected, respond) => {
      answer = respond;
      requests = 0;
      const { client, seen } = observedClient({ baseUrl, cache: false, ...clientOptions });
      const error = await failureOf(() => client.deliveries.create({ ...order, cod: 25_000 }, { ...callOptions }));
      expect(error.name).toBe(expected);
      expect(requests).toBeGreaterThan(0);
      for (const [how, text] of Object.entries(renderings(error))) expectKeyAbsent(`error ${how}`, text);
      expectKeyAbsent('hooks and logs', inspect(seen, { depth: Number.POSITIVE_INFINITY }));
      expectKeyAbsent('hooks and logs as JSON', JSON.stringify(seen));
      // Scrubbed, not dropped: the rest of what the service said is still there.
      expect(inspect(error, { depth: Number.POSITIVE_INFINITY })).toContain('[redacted]');
    });
  }

  /** Headers that echo the key: as a value (whole, base64, %-encoded), and in a header's name, which Fetch lower-cases. */
  const ECHOING_HEADERS = (sent: string[]): Record<string, string> => ({
    'x-echo': String(sent[0]),
    'x-echo-base64': btoa(KEY),
    'x-echo-encoded': encodeURIComponent(KEY).replace(/_/g, '%5F'),
    [`x-key-${KEY}`]: 'present',
    'x-request-id': 'req-1',
  });
  const headersHold = (headers: Iterable<[string, string]>): string[] =>
    [...headers].flat().filter((text) => text.toLowerCase().includes(KEY.toLowerCase()) || text.includes(btoa(KEY)));

  for (const [configName, clientOptions, callOptions] of CONFIGS) {
    it(`${configName}: withResponse() hands back an answer whose headers, names included, hold no key`, async () => {
      answer = (sent) => ({ status: 200, headers: ECHOING_HEADERS(sent), body: JSON.stringify({ success: true, message: 'Success', data: { ok: true } }) });
      const { client } = observedClient({ baseUrl, cache: false, ...clientOptions });
      const { data, response } = await client.request<{ ok: boolean }>({ method: 'GET', path: '/echo' }, { ...callOptions }).withResponse();
      expect(data).toEqual({ ok: true });
      expect(headersHold(response.headers)).toEqual([]);
      // Scrubbed, not dropped: the other headers, the status and the URL are the answer's.
      expect(response.headers.get('x-request-id')).toBe('req-1');
      expect(response.headers.get('x-echo')).toContain('[redacted]');
      expect(response.headers.get('x-key-redacted')).toBe('present');
      expect(response.status).toBe(200);
      expect(response.url).toBe(`${baseUrl}/echo`);
    });

    it(`${configName}: an error's headers hold no key in a name either`, async () => {
      answer = (sent) => ({ status: 503, headers: ECHOING_HEADERS(sent), body: JSON.stringify({ success: false, message: 'down' }) });
      const { client } = observedClient({ baseUrl, cache: false, maxRetries: 0, ...clientOptions });
      const error = (await failureOf(() => client.request({ method: 'GET', path: '/echo' }, { ...callOptions }))) as DeliveryError & {
        headers: Record<string, string>;
      };
      expect(headersHold(Object.entries(error.headers))).toEqual([]);
      expect(error.headers['x-key-redacted']).toBe('present');
    });
  }

  it('an answer whose headers hold no key is handed back as it came', async () => {
    answer = () => ({ status: 200, headers: { 'x-request-id': 'req-2' }, body: JSON.stringify({ success: true, message: 'Success', data: {} }) });
    const { client } = observedClient({ baseUrl, cache: false });
    const { response } = await client.request({ method: 'GET', path: '/echo' }).withResponse();
    expect(response.headers.get('x-request-id')).toBe('req-2');
    expect(response.bodyUsed).toBe(true);
  });
});

describe('header values with CR or LF are refused before anything is sent', () => {
  const sent: unknown[] = [];
  const fetch = (async (...args: unknown[]) => {
    sent.push(args);
    return Response.json({ success: true, data: [] });
  }) as typeof globalThis.fetch;

  it('in auth.scheme (it goes into the key header) and in a per-call header name or NUL value', async () => {
    for (const scheme of ['Bearer\r\nX-Injected: 1', 'Bearer\n', 'Bearer\0']) {
      expect(() => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: KEY, auth: { scheme }, fetch })).toThrow(ConfigurationError);
    }
    const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: KEY, fetch });
    for (const headers of [{ 'x-a\r\nInjected': 'v' }, { 'x-a': 'v\0' }, { 'x-a': 'v\r' }]) {
      await expect(client.lookup.cities({ countryId: 'eg' }, { headers })).rejects.toBeInstanceOf(ConfigurationError);
    }
    expect(sent).toEqual([]);
  });
});

describe('http:// is refused except to loopback', () => {
  it.each([
    'http://127.0.0.1.nip.io/v2',
    'http://localhost.example.com/v2',
    'http://example.com/127.0.0.1/v2',
    'http://10.0.0.1/v2',
    'http://[::2]/v2',
    'http://0.0.0.0/v2',
  ])('refuses %s, a host that only looks local', (baseUrl) => {
    expect(() => new DeliveryClient({ baseUrl })).toThrow(/unencrypted/);
  });

  it('takes the spellings of 127.0.0.1 the URL standard reads as loopback', () => {
    for (const baseUrl of ['http://127.1/v2', 'http://2130706433/v2', 'http://0x7f.0.0.1/v2', 'http://LOCALHOST:4010/v2', 'http://127.255.255.254/v2']) {
      expect(new URL(new DeliveryClient({ baseUrl }).baseUrl).hostname, baseUrl).toMatch(/^(?:127\.\d+\.\d+\.\d+|localhost)$/);
    }
  });

  it('only when allowInsecureHttp is true itself, not any truthy value', () => {
    for (const allowInsecureHttp of ['yes', 1, {}]) {
      expect(() => new DeliveryClient({ baseUrl: 'http://10.0.0.5/v2', allowInsecureHttp: allowInsecureHttp as never })).toThrow(ConfigurationError);
    }
  });
});

describe('the webhook header check', () => {
  const token = fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/);

  it('accepts exactly the configured value, and nothing that differs in one character, length or case', () => {
    const candidate = (value: string) =>
      fc.oneof(
        fc.constant(value),
        fc.nat(value.length - 1).chain((at) => fc.stringMatching(/^[A-Za-z0-9_-]$/).map((c) => value.slice(0, at) + c + value.slice(at + 1))),
        fc.nat(value.length - 1).map((cut) => value.slice(0, cut)),
        token.map((more) => value + more),
        fc.constant(value.toUpperCase()),
        token,
      );
    fc.assert(
      fc.property(
        token.chain((value) => candidate(value).map((sent) => ({ value, sent }))),
        fc.constantFrom('X-Webhook-Key', 'authorization'),
        ({ value, sent }, name) => {
          const auth = { name, value };
          expect(verifyWebhookHeaders(new Headers({ [name]: sent }), auth)).toBe(sent === value);
          expect(verifyWebhookHeaders({ [name.toUpperCase()]: sent }, auth)).toBe(sent === value);
        },
      ),
      { numRuns: 500 },
    );
  });
});
