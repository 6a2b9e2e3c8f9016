/**
 * The clocks of an attempt: `timeout` per attempt (send to last byte), what is left of the call's
 * `totalTimeout` (internal/deadline.ts), and the caller's signal. An attempt ends when any of them fires, by its own timer and
 * listener, whether or not fetch and the body stream honour the abort: nothing else would wake a
 * read that waits on a stalled body. The attempt's one signal ({@link AttemptClock.signal}) goes
 * to fetch, and the body read is cancelled: ky gets neither a `timeout` (a second timer and a
 * race per request) nor the caller's `signal` (an `AbortSignal.any` per request), each a
 * measurable part of a call (docs/performance.md).
 */

import { RequestAbortedError } from '../errors/base.js';
import { telemetrySpent } from './telemetry-guard.js';
import { MAX_TIMER } from './timer.js';

/** The error for a call the caller's `signal` stopped: `what` (`POST /orders`) was aborted by the caller. */
export function abortedByCaller(what: string, signal: AbortSignal | undefined): RequestAbortedError {
  return new RequestAbortedError(`${what} was aborted by the caller`, { cause: signal?.reason });
}

/** What cut an attempt short: the caller's signal, `totalTimeout`, or the attempt's own `timeout`. */
type Cut = 'caller' | 'total' | 'attempt';

/** How an attempt cut short rejects {@link AttemptClock.race}. */
export class AttemptCut {
  constructor(readonly cut: Cut) {}
}

/** One attempt's clock: {@link race} settles when it fires even if fetch does not. */
export class AttemptClock {
  /** Why the attempt was cut, once it was. */
  cut: Cut | undefined;
  readonly #abort = new AbortController();
  /** The attempt's signal, for fetch: aborted when the attempt is cut, whatever cut it. */
  readonly signal = this.#abort.signal;
  readonly #caller: AbortSignal | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The process's time in telemetry when the clock last looked (internal/telemetry-guard.ts). */
  #telemetryAt = telemetrySpent();
  #reject: ((reason: AttemptCut) => void) | undefined;
  #release: (() => void) | undefined;
  #onCallerAbort: (() => void) | undefined;

  /** `timeout`: this attempt's limit; `totalLeft`: what is left of the call's. Both in ms. */
  constructor(caller: AbortSignal | undefined, timeout: number, totalLeft: number) {
    this.#caller = caller;
    const ms = Math.min(timeout, totalLeft);
    if (ms < MAX_TIMER) this.#arm(timeout < totalLeft ? 'attempt' : 'total', Math.max(0, ms));
    if (caller?.aborted) this.#stop('caller');
    else if (caller !== undefined) {
      this.#onCallerAbort = () => this.#stop('caller');
      caller.addEventListener('abort', this.#onCallerAbort, { once: true });
    }
  }

  /** `work`, or an {@link AttemptCut} as soon as the attempt is cut, whether or not `work` notices. One race per attempt. */
  race<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.cut !== undefined) reject(new AttemptCut(this.cut));
      this.#reject = reject;
      work.then(resolve, reject);
    });
  }

  /** What to call when the attempt is cut: cancelling the body under way frees its connection. */
  holds(release: () => void): void {
    this.#release = release;
    if (this.cut !== undefined) release();
  }

  /** Stops the clocks; the attempt is over. */
  end(): void {
    clearTimeout(this.#timer);
    if (this.#onCallerAbort !== undefined) this.#caller?.removeEventListener('abort', this.#onCallerAbort);
    this.#reject = undefined;
  }

  /**
   * Cuts the attempt in `ms`, less the time telemetry took meanwhile: a span processor that held
   * the process (exporting synchronously, say) delayed the answer's reading, not the service, so
   * the clock runs on for as long. When the timer fires after such a block, the answer that came
   * meanwhile is read before the clock looks again.
   */
  #arm(cut: Cut, ms: number): void {
    this.#timer = setTimeout(() => {
      const held = telemetrySpent() - this.#telemetryAt;
      this.#telemetryAt += held;
      if (held >= 1) this.#arm(cut, held);
      else this.#stop(cut);
    }, ms);
  }

  #stop(cut: Cut): void {
    if (this.cut !== undefined) return;
    this.cut = cut;
    this.#abort.abort();
    this.#release?.();
    this.#reject?.(new AttemptCut(cut));
  }
}

/**
 * Waits `ms` between attempts; rejects with an {@link AttemptCut} when the caller aborts meanwhile.
 * The one wait of the transport and of the polls: a wait longer than {@link MAX_TIMER} (a
 * `retryDelay.max` or `maxPollInterval` of a month) is waited in steps, since a longer timer fires
 * at once. Its timer goes with the caller's abort.
 */
export function sleep(ms: number, caller: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AttemptCut('caller'));
    };
    const wait = (left: number): void => {
      timer = setTimeout(
        () => {
          if (left > MAX_TIMER) return wait(left - MAX_TIMER);
          caller?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.min(Math.max(0, left), MAX_TIMER),
      );
    };
    if (caller?.aborted) return onAbort();
    wait(ms);
    caller?.addEventListener('abort', onAbort, { once: true });
  });
}
