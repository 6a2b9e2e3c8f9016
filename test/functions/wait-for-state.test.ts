// waitForState waits (issue 40, point 7): its `until` fails typed, a wait shorter than the poll
// interval still reads again before it ends, and a burst of failures does not end a long wait.
// Fake clocks for the waits; an independent node:http service and the sandbox for the faults.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DeliveryClient, DeliveryError, DeliveryState, NotFoundError, ServerError, TimeoutError } from '../../src/index.js';
import { clientOnFetch, startFakeService } from '../support/fake-service.js';
import { dropOff, sandboxWithAccount } from '../support/sandbox.js';

afterEach(() => vi.useRealTimers());

// The code a read loads on first use (the namespace's chunk, the transport, the error mapping)
// arrives by real I/O, which a fake clock does not wait for: loaded once here, before any fake clock.
beforeAll(async () => {
  const { client } = clientOnFetch(() => Response.json({ success: false, message: 'Service unavailable' }, { status: 503 }));
  await client.deliveries.get('70000012').catch(() => undefined);
});

const order = (code: number) => Response.json({ success: true, data: { _id: 'o-1', trackingNumber: '70000012', state: { code, value: String(code) } } });
/**
 * Settles `promise` under fake timers: advances the clock a step at a time, letting real I/O (a
 * module loaded on first use) finish between steps, as many steps as it takes.
 */
async function settled<T>(promise: Promise<T>, step = 1_000): Promise<T> {
  let done = false;
  const watched = promise.finally(() => {
    done = true;
  });
  for (let steps = 0; !done && steps < 10_000; steps++) {
    await vi.advanceTimersByTimeAsync(step);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return watched;
}

const failing = (status: number) => Response.json({ success: false, message: 'Service unavailable' }, { status });

describe('waitForState against a fake with a fake clock', () => {
  it('an until that throws rejects with a DeliveryError carrying what it threw', async () => {
    const { client } = clientOnFetch(() => order(10));
    const thrown = new RangeError('bad until');
    const error = await client.deliveries
      .waitForState('70000012', {
        until: () => {
          throw thrown;
        },
      })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as DeliveryError).cause).toBe(thrown);
    expect((error as Error).message).toContain('until threw');
  });

  it('a totalTimeout shorter than the poll interval reads again before it ends, and resolves when that read finds the state', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client, sent } = clientOnFetch((_, index) => order(index === 0 ? 41 : 45));
    const waited = client.deliveries.waitForState('70000012', { pollInterval: 10_000, totalTimeout: 3_000 });
    await vi.advanceTimersByTimeAsync(3_000);
    expect((await waited).state?.code).toBe(DeliveryState.Delivered);
    expect(sent).toHaveLength(2);
  });

  it('and ends with a TimeoutError naming the last state when that read does not', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client, sent } = clientOnFetch(() => order(41));
    const waited = client.deliveries.waitForState('70000012', { pollInterval: 10_000, totalTimeout: 3_000 }).catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await waited;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain('state 41');
    expect(sent).toHaveLength(2);
  });

  it('a burst of 5xx does not end the wait: each failed read is read again at the next poll', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client, sent } = clientOnFetch((_, index) => (index === 0 ? order(10) : index < 6 ? failing(503) : order(45)));
    const waited = client.deliveries.waitForState('70000012', { pollInterval: 1_000, maxPollInterval: 1_000, totalTimeout: 60_000 });
    expect((await settled(waited)).state?.code).toBe(45);
    expect(sent).toHaveLength(7);
  });

  it('failures until the end are a TimeoutError whose cause is the last failed read', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client } = clientOnFetch((_, index) => (index === 0 ? order(24) : failing(502)));
    const waited = client.deliveries.waitForState('70000012', { pollInterval: 1_000, totalTimeout: 10_000 }).catch((err: unknown) => err);
    const error = (await settled(waited)) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toContain('state 24');
    expect(error.cause).toBeInstanceOf(ServerError);
  });

  it('waits for a state code, or any of a list of them, and tells onProgress of each read that does not end it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const states = [10, 24, 41, 46];
    const { client } = clientOnFetch((_, index) => order(states[Math.min(index, states.length - 1)] as number));
    const progress: unknown[] = [];
    const waited = client.deliveries.waitForState('70000012', {
      until: DeliveryState.ReceivedAtWarehouse,
      pollInterval: 1_000,
      maxPollInterval: 1_000,
      onProgress: (read) => progress.push(read),
    });
    expect((await settled(waited)).state?.code).toBe(24);
    expect(progress).toEqual([{ reads: 1, state: 10 }]);
    const { client: another } = clientOnFetch((_, index) => order(states[Math.min(index, states.length - 1)] as number));
    const either = another.deliveries.waitForState('70000012', { until: [DeliveryState.Delivered, DeliveryState.ReturnedToBusiness], pollInterval: 1_000 });
    expect((await settled(either)).state?.code).toBe(46);
  });

  it('refuses an until that is neither a state code, a list of them nor a function, sending nothing', async () => {
    const { client, sent } = clientOnFetch(() => order(10));
    for (const until of [[], ['45'], '45', 4.5])
      await expect(client.deliveries.waitForState('70000012', { until: until as never })).rejects.toThrow(/until: expected a state code/);
    expect(sent).toHaveLength(0);
  });

  it('an onProgress that throws rejects with a DeliveryError carrying what it threw', async () => {
    const { client } = clientOnFetch(() => order(10));
    const thrown = new RangeError('bad progress');
    const error = await client.deliveries
      .waitForState('70000012', {
        until: 45,
        onProgress: () => {
          throw thrown;
        },
      })
      .catch((err: unknown) => err);
    expect((error as DeliveryError).cause).toBe(thrown);
    expect((error as Error).message).toContain('onProgress threw');
  });

  it('a refusal in words ends the wait at once', async () => {
    const { client, sent } = clientOnFetch(() => Response.json({ success: false, message: 'Not found' }, { status: 404 }));
    await expect(client.deliveries.waitForState('70000012', { pollInterval: 0 })).rejects.toBeInstanceOf(NotFoundError);
    expect(sent).toHaveLength(1);
  });
});

describe('waitForState against an independent node:http service that fails for a while', () => {
  it('waits through the failures and resolves with the order', async () => {
    const fake = await startFakeService();
    let reads = 0;
    fake.on('GET /deliveries/business/:id', () => {
      reads += 1;
      if (reads <= 4) return { status: 502, json: { success: false, message: 'Bad gateway' } };
      return { json: { success: true, data: { _id: 'o-1', trackingNumber: '70000012', state: { code: reads < 6 ? 41 : 45 } } } };
    });
    const client = new DeliveryClient({ baseUrl: fake.baseUrl, apiKey: 'k', maxRetries: 0 });
    const done = await client.deliveries.waitForState('70000012', { pollInterval: 0, totalTimeout: 60_000 });
    expect(done.state?.code).toBe(45);
    expect(reads).toBe(6);
    await fake.close();
  });
});

describe('waitForState against the sandbox', () => {
  it('waits through 5xx answers in front of it until the order is delivered', async () => {
    let failuresLeft = 3;
    const { sandbox, client } = await sandboxWithAccount(
      {},
      {
        fetch: (input, init) => {
          const request = input instanceof Request ? input : new Request(input, init);
          if (request.method === 'GET' && failuresLeft > 0) {
            failuresLeft -= 1;
            return Promise.resolve(failing(503));
          }
          return sandbox.fetch(request);
        },
      },
    );
    const created = await client.deliveries.create({
      type: 10,
      dropOffAddress: dropOff,
      receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
    });
    await sandbox.play(created.trackingNumber, 'success');
    const done = await client.deliveries.waitForState(created.trackingNumber, { pollInterval: 0, totalTimeout: 60_000 });
    expect(done.state?.code).toBe(DeliveryState.Delivered);
    expect(failuresLeft).toBe(0);
    await sandbox.close();
  });
});
