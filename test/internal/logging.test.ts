import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Logger, type LogLevel, ServerError } from '../../src/index.js';
import { BASE, HttpResponse, http, KEY, makeClient, useFakeService } from '../support/fake-service.js';

const server = useFakeService();
afterEach(() => vi.restoreAllMocks());

/** A logger that keeps every line with its level. */
function recordingLogger() {
  const lines: Array<{ level: string; message: string; data: unknown }> = [];
  const at = (level: string) => (message: string, data?: Record<string, unknown>) => lines.push({ level, message, data });
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

/** GET /r answers 503 `failures` times, then 200. */
function flaky(failures: number) {
  let calls = 0;
  server.use(http.get(`${BASE}/r`, () => (++calls <= failures ? HttpResponse.json({}, { status: 503 }) : HttpResponse.json({ success: true, data: 'ok' }))));
}

describe('backoff between retries', () => {
  it('is exponential with full jitter: uniform in [0, min(max, base * 2^n)]', async () => {
    const waits = async (random: number) => {
      vi.spyOn(Math, 'random').mockReturnValue(random);
      flaky(5);
      const delays: number[] = [];
      const client = makeClient({ maxRetries: 5, retryDelay: { base: 2, max: 20 }, hooks: { onRetry: ({ delayMs }) => delays.push(delayMs) } });
      await expect(client.request({ method: 'GET', path: '/r' })).resolves.toBe('ok');
      return delays;
    };
    expect(await waits(0.999_999)).toEqual([1, 3, 7, 15, 19]);
    expect(await waits(0)).toEqual([0, 0, 0, 0, 0]);
  });

  it('is what the client waits, from retryDelay, when the server sends no Retry-After', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    flaky(3);
    const delays: number[] = [];
    const client = makeClient({ maxRetries: 3, retryDelay: { base: 4, max: 10 }, hooks: { onRetry: ({ delayMs }) => delays.push(delayMs) } });
    await expect(client.request({ method: 'GET', path: '/r' })).resolves.toBe('ok');
    expect(delays).toEqual([2, 4, 5]); // half of 4, 8, then of the 10 cap
  });
});

describe('logging', () => {
  it('logs each attempt at debug, a retry at warn and a call given up at error, the key redacted', async () => {
    flaky(5);
    const { logger, lines } = recordingLogger();
    await expect(makeClient({ logger, logLevel: 'debug', maxRetries: 1 }).request({ method: 'GET', path: '/r' })).rejects.toMatchObject({ status: 503 });
    const levels = lines.map((line) => line.level);
    expect(levels.filter((level) => level === 'warn')).toHaveLength(1);
    expect(levels.filter((level) => level === 'error')).toHaveLength(1);
    expect(levels.at(-1)).toBe('error');
    expect(lines.find((line) => line.level === 'warn')?.message).toMatch(/GET .*\/r retrying in \d+ ms after: .*503/);
    expect(lines.find((line) => line.level === 'error')?.message).toMatch(/GET .*\/r failed: .*503/);
    const attempts = lines.filter((line) => line.level === 'debug' && /\(attempt \d\)/.test(line.message));
    expect(attempts).toHaveLength(2);
    expect(JSON.stringify(attempts)).toContain('[redacted]');
    expect(JSON.stringify(lines)).not.toContain(KEY);
  });

  it.each<[LogLevel, string[]]>([
    ['info', ['warn', 'error']],
    ['warn', ['warn', 'error']],
    ['error', ['error']],
    ['off', []],
  ])('with logLevel %s, passes on only the levels at or above it', async (logLevel, expected) => {
    flaky(5);
    const { logger, lines } = recordingLogger();
    await expect(makeClient({ logger, logLevel, maxRetries: 1 }).request({ method: 'GET', path: '/r' })).rejects.toThrow();
    expect([...new Set(lines.map((line) => line.level))]).toEqual(expected);
  });

  it('passes a line without data as the message alone, so a console-like logger prints no "undefined"', async () => {
    flaky(0);
    const calls: unknown[][] = [];
    const keep = (...args: unknown[]) => void calls.push(args);
    await makeClient({ logger: { debug: keep, info: keep, warn: keep, error: keep }, logLevel: 'debug' }).request({ method: 'GET', path: '/r' });
    const answered = calls.find(([message]) => String(message).includes('answered 200'));
    expect(answered).toHaveLength(1);
  });

  it('logs nothing for a call that succeeds at the default level', async () => {
    flaky(0);
    const { logger, lines } = recordingLogger();
    await expect(makeClient({ logger }).request({ method: 'GET', path: '/r' })).resolves.toBe('ok');
    expect(lines).toEqual([]);
  });
});

describe('a hook or logger that throws', () => {
  const throwing = () => {
    throw new Error('bug in the hook');
  };

  it('is reported through the logger and changes nothing: the call retries and resolves as it would', async () => {
    flaky(1);
    const { logger, lines } = recordingLogger();
    const client = makeClient({
      maxRetries: 1,
      retryDelay: { base: 1, max: 1 },
      logger,
      logLevel: 'warn',
      hooks: { onRequest: throwing, onResponse: throwing, onRetry: throwing, onError: throwing },
    });
    await expect(client.request({ method: 'GET', path: '/r' })).resolves.toBe('ok');
    const reported = lines.filter(({ message }) => /^hooks\.\w+ threw, ignored: bug in the hook$/.test(message)).map(({ message }) => message.split(' ')[0]);
    expect(new Set(reported)).toEqual(new Set(['hooks.onRequest', 'hooks.onResponse', 'hooks.onRetry']));
  });

  it('leaves a failed call failing with its own error, not the hook’s', async () => {
    flaky(5);
    const client = makeClient({ maxRetries: 0, hooks: { onError: throwing, onRetry: throwing } });
    const error = await client.request({ method: 'GET', path: '/r' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
  });

  it('a logger that throws changes nothing either, for a call that succeeds or fails', async () => {
    const logger: Logger = { debug: throwing, info: throwing, warn: throwing, error: throwing };
    flaky(1);
    await expect(
      makeClient({ maxRetries: 1, retryDelay: { base: 1, max: 1 }, logger, logLevel: 'debug' }).request({ method: 'GET', path: '/r' }),
    ).resolves.toBe('ok');
    flaky(5);
    const error = await makeClient({ maxRetries: 0, logger, logLevel: 'debug', hooks: { onError: throwing } })
      .request({ method: 'GET', path: '/r' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
  });
});
