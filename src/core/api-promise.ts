/** A successful answer together with the HTTP response it came from (body already read). */
export interface WithResponse<T> {
  /** What the method resolves to. */
  data: T;
  /** The raw Fetch `Response` of the last attempt (status, headers); its body is already read. */
  response: Response;
}

/** The base promise's executor: one function for every APIPromise, its value never read. */
const settleAtOnce = (resolve: (value: never) => void): void => resolve(undefined as never);

/**
 * The promise every method returns: await it for the typed result, or call `.withResponse()`
 * for the status and headers too.
 *
 * @example
 * ```ts
 * const { data, response } = await client.deliveries.create(order).withResponse();
 * console.log(response.status, data.trackingNumber);
 * ```
 */
export class APIPromise<T> extends Promise<T> {
  readonly #raw: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(raw: Promise<WithResponse<T>>) {
    super(settleAtOnce);
    this.#raw = raw;
  }

  /** Derived promises (then/catch/finally results) are plain Promises, not APIPromises. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** Resolves to `{ data, response }`. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#raw;
  }

  // biome-ignore lint/suspicious/noThenProperty: ApiPromise is a Promise: then is its contract
  override then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    this.#data ??= this.#raw.then((result) => result.data);
    return this.#data.then(onFulfilled, onRejected);
  }
}
