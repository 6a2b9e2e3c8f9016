import { vi } from 'vitest';

/** Real turns of the event loop given to the work under way before the clock moves. */
const TURNS_PER_STEP = 50;

/**
 * Runs `scenario` on a fake clock (timers and `Date`). The clock moves only when the work under
 * way has had many real turns of the event loop (an answer being read, a stream being piped), and
 * then straight to the next timer due: timeouts, retry delays and slow answers come in the same
 * order on every machine, however loaded, and the run spends no real time waiting for them.
 */
export async function onFakeClock<T>(scenario: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  try {
    let done = false;
    const result = scenario().finally(() => {
      done = true;
    });
    while (!done) {
      for (let turn = 0; turn < TURNS_PER_STEP && !done; turn++) await new Promise((resolve) => setImmediate(resolve));
      if (!done) await vi.advanceTimersToNextTimerAsync();
    }
    return await result;
  } finally {
    vi.useRealTimers();
  }
}
