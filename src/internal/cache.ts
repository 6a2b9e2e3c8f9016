interface Entry {
  /** Epoch ms after which the entry is stale; `Infinity` while its load is in flight. */
  expires: number;
  readonly value: Promise<unknown>;
  /** Aborts the load in flight: when every caller waiting for it has stopped waiting. */
  readonly stop: AbortController;
  /** Callers waiting for the load in flight; one without a signal waits to the end. */
  waiting: number;
}

/** A caller of {@link TtlCache.get}: its signal, and the error its wait ends with when that aborts. */
export interface CacheCaller {
  readonly signal: AbortSignal | undefined;
  aborted(): Error;
}

/**
 * Answers kept in memory for `ttl` ms after they arrive. A load in flight is shared by every
 * caller asking for the same key meanwhile; a failed load is forgotten at once, so the next
 * call tries again. A caller's abort ends its own wait; when no caller is left waiting, the load
 * is aborted (it sends nothing more, its timers stop) and forgotten.
 */
export class TtlCache {
  readonly #entries = new Map<string, Entry>();
  readonly #ttl: number;

  constructor(ttl: number) {
    this.#ttl = ttl;
  }

  get<T>(key: string, load: (signal: AbortSignal) => Promise<T>, caller: CacheCaller): Promise<T> {
    const { signal } = caller;
    // Aborted already: nothing is loaded for it.
    if (signal?.aborted) return Promise.reject(caller.aborted());
    const known = this.#entries.get(key);
    const entry = known !== undefined && known.expires > Date.now() ? known : this.#load(key, load);
    if (entry.expires !== Number.POSITIVE_INFINITY) return entry.value as Promise<T>;
    // A caller without a signal waits to the end: it is never taken off.
    entry.waiting++;
    if (signal === undefined) return entry.value as Promise<T>;
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        entry.waiting--;
        this.#leave(key, entry);
        reject(caller.aborted());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      (entry.value as Promise<T>).then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  clear(): void {
    this.#entries.clear();
  }

  #load<T>(key: string, load: (signal: AbortSignal) => Promise<T>): Entry {
    const stop = new AbortController();
    const value = load(stop.signal);
    const entry: Entry = { expires: Number.POSITIVE_INFINITY, value, stop, waiting: 0 };
    this.#entries.set(key, entry);
    value.then(
      () => {
        entry.expires = Date.now() + this.#ttl;
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return entry;
  }

  /** A caller stopped waiting for `entry`: with no caller left waiting for it in flight, its load stops. */
  #leave(key: string, entry: Entry): void {
    if (entry.waiting > 0 || entry.expires !== Number.POSITIVE_INFINITY) return;
    entry.stop.abort();
    if (this.#entries.get(key) === entry) this.#entries.delete(key);
  }
}
