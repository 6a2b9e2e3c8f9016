/**
 * Lists answered 50 items at a time: a tool reads that many from the list (an array, or what an
 * operation yields, such as `deliveries.list`'s pages), and keeps the rest under a `nextCursor`
 * the next call passes as `cursor`. What a read yields is read on only as it is asked for; the
 * rest of a list nobody asks for is dropped after a while, its reading stopped.
 */
import { PAGE_SIZE } from './tools.js';

/** One page of a list: at most {@link PAGE_SIZE} items, and the cursor of the rest when there is more. */
export interface Page {
  items: unknown[];
  nextCursor?: string;
}

interface Kept {
  readonly tool: string;
  readonly source: Iterator<unknown> | AsyncIterator<unknown>;
  readonly buffered: unknown[];
  done: boolean;
  /** When it is dropped, epoch ms. */
  until: number;
}

/** How long the rest of a list is kept for its cursor. */
const KEPT_FOR = 10 * 60_000;
/** Lists kept at most; past them the oldest goes. */
const KEPT = 100;

/** The lists of one server, by cursor. */
export class ListShelf {
  readonly #lists = new Map<string, Kept>();

  /** The first page of `source` (the rest kept for its cursor); `each` hears of each item read. */
  first(tool: string, source: Iterator<unknown> | AsyncIterator<unknown>, each?: (read: number) => void): Promise<Page> {
    return this.#page({ tool, source, buffered: [], done: false, until: 0 }, each);
  }

  /** The next page of the list `cursor` names, or undefined when no list of `tool` is kept under it (expired, or never). */
  next(tool: string, cursor: string, each?: (read: number) => void): Promise<Page> | undefined {
    this.#drop(Date.now());
    const kept = this.#lists.get(cursor);
    if (kept === undefined || kept.tool !== tool) return undefined;
    this.#lists.delete(cursor);
    return this.#page(kept, each);
  }

  async #page(kept: Kept, each: ((read: number) => void) | undefined): Promise<Page> {
    // One item past the page says whether there is more.
    while (kept.buffered.length <= PAGE_SIZE && !kept.done) {
      const read = await kept.source.next();
      if (read.done === true) kept.done = true;
      else {
        kept.buffered.push(read.value);
        each?.(Math.min(kept.buffered.length, PAGE_SIZE));
      }
    }
    const items = kept.buffered.splice(0, PAGE_SIZE);
    if (kept.buffered.length === 0) return { items };
    const now = Date.now();
    this.#drop(now);
    kept.until = now + KEPT_FOR;
    const cursor = crypto.randomUUID();
    this.#lists.set(cursor, kept);
    for (const oldest of this.#lists.keys()) {
      if (this.#lists.size <= KEPT) break;
      this.#close(oldest);
    }
    return { items, nextCursor: cursor };
  }

  /** Drops the lists kept past their time. */
  #drop(now: number): void {
    for (const [cursor, kept] of this.#lists) if (kept.until <= now) this.#close(cursor);
  }

  #close(cursor: string): void {
    const kept = this.#lists.get(cursor);
    this.#lists.delete(cursor);
    // A read left part-way stops reading (a generator's `finally` runs); its failure is nobody's to hear now.
    void Promise.resolve(kept?.source.return?.()).catch(() => undefined);
  }

  /** Stops every list kept (the server closes). */
  clear(): void {
    for (const cursor of [...this.#lists.keys()]) this.#close(cursor);
  }
}
