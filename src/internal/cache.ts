import { abortedByCaller } from './attempt-clock.js';

interface Entry {
  /** Epoch ms after which the entry is stale; `Infinity` while its load is in flight. */
  expires: number;
  readonly value: Promise<unknown>;
  /** Aborts the load in flight: when every caller waiting for it has stopped waiting. */
  readonly stop: AbortController;
  /** Callers waiting for the load in flight; `Infinity` once one without a signal, which waits to the end, joined. */
  waiting: number;
}

/**
 * Answers kept in memory for `ttl` ms after they arrive. A load in flight is shared by every
 * caller asking for the same key meanwhile; a failed load is forgotten at once, so the next
 * call tries again. A caller's abort ends its own wait (a `RequestAbortedError` saying `what` was
 * aborted); when no caller is left waiting, the load is aborted (it sends nothing more, its
 * timers stop) and forgotten.
 */
export class TtlCache {
  readonly #entries = new Map<string, Entry>();
  readonly #ttl: number;

  constructor(ttl: number) {
    this.#ttl = ttl;
  }

  get<T>(key: string, load: (signal: AbortSignal) => Promise<T>, signal: AbortSignal | undefined, what: string): Promise<T> {
    // Aborted already: nothing is loaded for it.
    if (signal?.aborted) return Promise.reject(abortedByCaller(what, signal));
    let entry = this.#entries.get(key);
    if (entry === undefined || entry.expires <= Date.now()) {
      const stop = new AbortController();
      const made: Entry = (entry = { expires: Infinity, value: load(stop.signal), stop, waiting: 0 });
      this.#entries.set(key, made);
      made.value.then(
        () => {
          made.expires = Date.now() + this.#ttl;
        },
        () => this.#forget(key, made),
      );
    }
    const loading = entry;
    // A caller without a signal waits to the end: it is never taken off.
    if (loading.expires === Infinity) loading.waiting += signal === undefined ? Infinity : 1;
    if (signal === undefined) return loading.value as Promise<T>;
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        reject(abortedByCaller(what, signal));
        // The last caller waiting for the load in flight: it stops (nothing more is sent) and is forgotten.
        if (--loading.waiting > 0 || loading.expires !== Infinity) return;
        loading.stop.abort();
        this.#forget(key, loading);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      (loading.value as Promise<T>).then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  clear(): void {
    this.#entries.clear();
  }

  #forget(key: string, entry: Entry): void {
    if (this.#entries.get(key) === entry) this.#entries.delete(key);
  }
}
