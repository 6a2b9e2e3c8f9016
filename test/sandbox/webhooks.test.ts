import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox, type Sandbox, SandboxError } from '../../src/testing/index.js';
import { createOrderTracker, createWebhookHandler, type WebhookEvent } from '../../src/webhooks/index.js';
import { createOrder, dropOff, sandboxWithAccount, setUpAccount, startReceiver } from '../support/sandbox.js';

let sandbox: Sandbox;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await sandbox.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function receiver(failFirst = 0) {
  const r = await startReceiver({ failFirst });
  cleanups.push(r.close);
  return r;
}

async function order(extra: object = {}): Promise<string> {
  const answer = await createOrder(sandbox, { type: 10, dropOffAddress: dropOff, ...extra });
  return answer.body.data.trackingNumber;
}

describe('account-level webhook (dashboard setting)', () => {
  it('is used when the order has no webhookUrl, with its header', async () => {
    const r = await receiver();
    ({ sandbox } = await sandboxWithAccount());
    sandbox.setWebhook({ url: r.url, headerName: 'X-Auth', headerValue: 'token-1' });
    await sandbox.advance(await order(), { to: 20 });
    expect(r.received).toHaveLength(1);
    expect(r.received[0]?.headers['x-auth']).toBe('token-1');
  });

  it('yields to the order webhookUrl', async () => {
    const account = await receiver();
    const perOrder = await receiver();
    ({ sandbox } = await sandboxWithAccount());
    sandbox.setWebhook({ url: account.url });
    await sandbox.advance(await order({ webhookUrl: perOrder.url }), { to: 20 });
    expect(perOrder.received).toHaveLength(1);
    expect(account.received).toHaveLength(0);
  });

  it('refuses a header name without value (and the reverse) and a non-URL', () => {
    sandbox = createSandbox();
    expect(() => sandbox.setWebhook({ url: 'http://127.0.0.1:9/h', headerName: 'X-Auth' })).toThrow(SandboxError);
    expect(() => sandbox.setWebhook({ url: 'http://127.0.0.1:9/h', headerValue: 'v' })).toThrow(/together/);
    expect(() => sandbox.setWebhook({ url: 'not a url' })).toThrow(SandboxError);
  });

  it('refuses a header value no request could carry (CR, LF, NUL) or an empty one, and keeps the previous setting', async () => {
    const r = await receiver();
    ({ sandbox } = await sandboxWithAccount());
    sandbox.setWebhook({ url: r.url, headerName: 'X-Auth', headerValue: 'token-1' });
    for (const headerValue of ['a\r\nX-Injected: 1', 'a\nb', 'a\0b', '', '  ']) {
      expect(() => sandbox.setWebhook({ url: r.url, headerName: 'X-Auth', headerValue }), JSON.stringify(headerValue)).toThrow(/headerValue/);
    }
    await sandbox.advance(await order(), { to: 20 });
    expect(r.received[0]?.headers['x-auth']).toBe('token-1');
  });

  it('sends nothing when no webhook is configured, but the state still changes', async () => {
    ({ sandbox } = await sandboxWithAccount());
    const tn = await order();
    await sandbox.advance(tn, { to: 20 });
    expect(sandbox.order(tn).state).toBe(20);
    expect(sandbox.webhookLog()).toHaveLength(0);
  });
});

describe('delivery and retries', () => {
  it('retries a failing receiver with backoff until it accepts, and logs every attempt', async () => {
    const r = await receiver(2);
    ({ sandbox } = await sandboxWithAccount({ webhookRetry: { attempts: 4, baseDelayMs: 10 } }));
    await sandbox.advance(await order({ webhookUrl: r.url }), { to: 20 });
    // advance resolves after the first attempt: it failed, a retry is pending.
    expect(r.hits()).toBe(1);
    expect(sandbox.webhookLog()[0]?.status).toBe('pending');
    await sandbox.drainWebhooks();
    const [delivery] = sandbox.webhookLog();
    expect(delivery?.status).toBe('delivered');
    expect(delivery?.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(r.received).toHaveLength(1);
    expect(r.received[0]?.body.state).toBe(20);
  });

  it('backs off: each wait before a retry doubles the one before', async () => {
    const r = await receiver(100);
    ({ sandbox } = await sandboxWithAccount({ webhookRetry: { attempts: 4, baseDelayMs: 40 } }));
    await sandbox.advance(await order({ webhookUrl: r.url }), { to: 20 });
    await sandbox.drainWebhooks();
    const starts = sandbox.webhookLog()[0]?.attempts.map((attempt) => attempt.at) ?? [];
    expect(starts).toHaveLength(4);
    const gaps = starts.slice(1).map((at, i) => at - (starts[i] as number));
    // 40, 80, 160 ms plus the time each failed attempt took; timers may fire a millisecond early.
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(40 * 2 ** i - 2));
  });

  it('keeps a standalone script running while it awaits drainWebhooks(), until the retry is delivered', async () => {
    // Its own process: in vitest's, the runner's own handles would keep Node running anyway.
    const script = fileURLToPath(new URL('../support/scripts/drain-webhooks.ts', import.meta.url));
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', script], { timeout: 60_000 }, (error, out, err) =>
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout: out, stderr: err }),
      );
    });
    expect(stderr).toBe('');
    expect(stdout).toBe('after advance: pending\nafter drain: delivered, attempts 500 200\n');
    expect(code).toBe(0);
  }, 90_000);

  it.each([302, 307, 308])('never follows a redirect (%i): a failed attempt, retried as any other, and nothing reaches where it points', async (status) => {
    // The target a redirect points to: a host the sandbox would refuse in real life, a second receiver here.
    const elsewhere = await receiver();
    const redirecting = createServer((_, res) => res.writeHead(status, { location: elsewhere.url }).end());
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      ({ sandbox } = await sandboxWithAccount({ webhookRetry: { attempts: 3, baseDelayMs: 1 } }));
      const { port } = redirecting.address() as AddressInfo;
      await sandbox.advance(await order({ webhookUrl: `http://127.0.0.1:${port}/hooks`, webhookCustomHeaders: { 'X-Secret': 'webhook-secret' } }), { to: 20 });
      await sandbox.drainWebhooks();
      expect(sandbox.webhookLog()[0]).toMatchObject({
        status: 'failed',
        attempts: Array.from({ length: 3 }, () => ({ status, error: `redirect not followed (HTTP ${status})` })),
      });
      expect(elsewhere.hits()).toBe(0);
    } finally {
      redirecting.closeAllConnections();
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
      await elsewhere.close();
    }
  });

  it('gives up after the last attempt', async () => {
    const r = await receiver(100);
    ({ sandbox } = await sandboxWithAccount({ webhookRetry: { attempts: 3, baseDelayMs: 1 } }));
    await sandbox.advance(await order({ webhookUrl: r.url }), { to: 20 });
    await sandbox.drainWebhooks();
    expect(sandbox.webhookLog()[0]).toMatchObject({ status: 'failed', attempts: [{ status: 500 }, { status: 500 }, { status: 500 }] });
    expect(r.hits()).toBe(3);
  });

  it('records a receiver that does not listen as a network error', async () => {
    const r = await receiver();
    await r.close();
    ({ sandbox } = await sandboxWithAccount({ webhookRetry: { attempts: 1 } }));
    await sandbox.advance(await order({ webhookUrl: r.url }), { to: 20 });
    expect(sandbox.webhookLog()[0]).toMatchObject({ status: 'failed', attempts: [{ error: expect.any(String) }] });
  });

  it('aborts an attempt in flight on close: a receiver that never answers does not hold close() for the timeout', async () => {
    const hanging = createServer(() => {
      // Never answers.
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    });
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hooks`;
    ({ sandbox } = await sandboxWithAccount({ webhookRetry: { attempts: 3, timeoutMs: 30_000 } }));
    const advanced = sandbox.advance(await order({ webhookUrl: url }), { to: 20 });
    await vi.waitFor(() => expect(sandbox.webhookLog()).toHaveLength(1));
    // timeoutMs (30 s) is beyond the test timeout (20 s): waiting the attempt out fails the test.
    await sandbox.close();
    await advanced;
    expect(sandbox.webhookLog()[0]).toMatchObject({ status: 'failed', attempts: [{ error: 'the sandbox was closed' }] });
  });

  it('stops pending retries on close, leaving no timer behind', async () => {
    const r = await receiver(100);
    ({ sandbox } = await sandboxWithAccount({ webhookRetry: { attempts: 5, baseDelayMs: 60_000 } }));
    await sandbox.advance(await order({ webhookUrl: r.url }), { to: 20 });
    // The next retry is due in 60 s, beyond the test timeout: close() must not wait for it.
    await sandbox.close();
    expect(sandbox.webhookLog()[0]?.status).toBe('failed');
    expect(r.hits()).toBe(1);
  });
});

describe('webhookFetch: webhooks to a Fetch handler in the same process', () => {
  it('delivers every state change to the handler, header included, with no server', async () => {
    const events: WebhookEvent[] = [];
    const tracker = createOrderTracker();
    const handler = createWebhookHandler({
      auth: { name: 'X-Shop-Key', value: 'k-1' },
      onEvent: (event) => {
        events.push(event);
        tracker.track(event);
      },
    });
    const urls: string[] = [];
    sandbox = createSandbox({
      webhookFetch: (url, init) => {
        urls.push(url);
        return handler(new Request(url, init));
      },
    });
    await setUpAccount(sandbox);
    sandbox.setWebhook({ url: 'https://shop.test/hooks', headerName: 'X-Shop-Key', headerValue: 'k-1' });
    const trackingNumber = await order();
    await sandbox.play(trackingNumber, 'success');
    expect(events.map((event) => event.state)).toEqual([20, 21, 24, 30, 24, 41, 45]);
    expect(new Set(urls)).toEqual(new Set(['https://shop.test/hooks']));
    expect(tracker.current(trackingNumber)?.state).toBe(45);
    expect(sandbox.webhookLog().every((delivery) => delivery.status === 'delivered')).toBe(true);
  });

  it('records what the handler answers: a wrong header is a 401, retried and then failed', async () => {
    const handler = createWebhookHandler({ auth: { name: 'X-Shop-Key', value: 'right' }, onEvent: () => undefined });
    ({ sandbox } = await sandboxWithAccount({ webhookFetch: (url, init) => handler(new Request(url, init)), webhookRetry: { attempts: 2, baseDelayMs: 1 } }));
    sandbox.setWebhook({ url: 'https://shop.test/hooks', headerName: 'X-Shop-Key', headerValue: 'wrong' });
    await sandbox.advance(await order(), { to: 20 });
    await vi.waitFor(() => expect(sandbox.webhookLog()[0]?.status).toBe('failed'));
    expect(sandbox.webhookLog()[0]?.attempts.map((attempt) => attempt.status)).toEqual([401, 401]);
  });
});
