// How far a call travels from the method a merchant calls to ky, once its code is loaded: the
// stack at the moment ky is asked to send. Each frame of the SDK is a function a reader has to
// follow to understand a call; few frames in few files keep the path readable and cheap.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validOrders } from '../support/orders.js';

afterEach(async () => {
  // The unmock applied now, with no import left running: see test/namespaces/on-demand.test.ts.
  await vi.dynamicImportSettled();
  vi.doUnmock('ky');
  vi.resetModules();
  await import('../../src/index.js');
});

/** The SDK's frames of a stack, innermost first: `{ fn, file }` for each frame in src/. */
function sdkFrames(stack: string): Array<{ fn: string; file: string }> {
  return stack
    .split('\n')
    .slice(1)
    .flatMap((line) => {
      const match = /at (?:async )?(.*?) \(.*?\/src\/([^:]+):\d+:\d+\)$/.exec(line.trim()) ?? /at (?:async )?.*?\/src\/([^:]+):\d+:\d+$/.exec(line.trim());
      if (match === null) return [];
      return match.length === 3 ? [{ fn: match[1] as string, file: match[2] as string }] : [{ fn: '(anonymous)', file: match[1] as string }];
    });
}

describe('the path of a call', () => {
  // With telemetry on, the same path: the call and its attempts are told through calls beside it, not wrappers around it.
  it.each([
    ['without telemetry', false],
    ['with openTelemetry()', true],
  ])('client.deliveries.create reaches ky through at most 8 calls in at most 6 files, with one APIPromise (%s)', async (_, traced) => {
    const stacks: string[] = [];
    vi.doMock('ky', async (importOriginal) => {
      const real = await importOriginal<typeof import('ky')>();
      const recording = Object.assign((...args: Parameters<typeof real.default>) => {
        const limit = Error.stackTraceLimit;
        Error.stackTraceLimit = 100;
        stacks.push(new Error('ky was called').stack ?? '');
        Error.stackTraceLimit = limit;
        return real.default(...args);
      }, real.default);
      return { ...real, default: recording };
    });
    vi.resetModules();
    const sdk = await import('../../src/index.js');
    const fetch = async (): Promise<Response> => Response.json({ success: true, data: { _id: 'd1', trackingNumber: '70000012' } });
    const telemetry = traced ? (await import('../../src/telemetry/index.js')).openTelemetry() : undefined;
    const client = new sdk.DeliveryClient({ baseUrl: 'https://api.delivery.test/v2', apiKey: 'sk_test_path', fetch, telemetry });
    const order = validOrders.deliver() as import('../../src/index.js').DeliverOrder;
    await client.deliveries.create(order); // loads the chunk and the sending code
    stacks.length = 0;
    const promise = client.deliveries.create(order);
    expect(promise).toBeInstanceOf(sdk.APIPromise);
    await expect(promise).resolves.toMatchObject({ trackingNumber: '70000012' });

    expect(stacks).toHaveLength(1);
    const frames = sdkFrames(stacks[0] as string);
    const path = frames.map(({ fn, file }) => `${file} ${fn}`).join('\n');
    expect(frames.at(-1)?.fn, path).toBe('DeliveriesNamespace.create');
    expect(frames.length, path).toBeLessThanOrEqual(8);
    expect(new Set(frames.map(({ file }) => file)).size, path).toBeLessThanOrEqual(6);
  });
});
