interface Entry {
  /** Epoch ms after which the entry is stale; `Infinity` while its load is in flight. */
  expires: number;
  readonly value: Promise<unknown>;
}

/**
 * Answers kept in memory for `ttl` ms after they arrive. A load in flight is shared by every
 * caller asking for the same key meanwhile; a failed load is forgotten at once, so the next
 * call tries again.
 */
export class TtlCache {
  readonly #entries = new Map<string, Entry>();
  readonly #ttl: number;

  constructor(ttl: number) {
    this.#ttl = ttl;
  }

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const known = this.#entries.get(key);
    if (known !== undefined && known.expires > Date.now()) return known.value as Promise<T>;
    const value = load();
    const entry: Entry = { expires: Number.POSITIVE_INFINITY, value };
    this.#entries.set(key, entry);
    value.then(
      () => {
        entry.expires = Date.now() + this.#ttl;
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return value;
  }

  clear(): void {
    this.#entries.clear();
  }
}
