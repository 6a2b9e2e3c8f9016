/** A list that keeps its last `capacity` items. */
export class RingBuffer<T> {
  private items: T[] = [];
  constructor(readonly capacity: number) {}

  push(item: T): void {
    this.items.push(item);
    // Cut in batches, so that a full buffer does not copy itself at every push.
    if (this.items.length > this.capacity + Math.ceil(this.capacity / 8)) this.items = this.items.slice(-this.capacity);
  }

  /** Oldest first. */
  values(): readonly T[] {
    return this.items.length > this.capacity ? this.items.slice(-this.capacity) : this.items;
  }
}
