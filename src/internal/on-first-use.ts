import { ConnectionError } from '../errors/index.js';

/** The code of a load that failed: nothing that needed it was sent (retry.ts reads it so). */
export const NOT_LOADED = 'ERR_DELIVERY_SDK_NOT_LOADED';

/** Code loaded on first use, once: what a page or a process that never needs it does not pay for. */
export interface OnFirstUse<M> {
  /** The module once it has arrived: a caller that finds it goes on at once, with no promise in between. */
  readonly ready: M | undefined;
  /**
   * The load in flight, or a new one after a failure (a page whose chunks were redeployed, a
   * connection lost). A failed load rejects with a `ConnectionError` saying nothing was sent.
   */
  load(): Promise<M>;
}

/**
 * `importer` run on the first `load()` and never again once it succeeds; a failed load is tried
 * again by the next. The one home of "load once, keep it once arrived, try again after a failure"
 * (each namespace's operations, the sending code, the schemas, the error mapping).
 */
/* @__NO_SIDE_EFFECTS__ */
export function onFirstUse<M>(importer: () => Promise<M>): OnFirstUse<M> {
  let loading: Promise<M> | undefined;
  const module: { ready: M | undefined; load(): Promise<M> } = {
    ready: undefined,
    load: () =>
      (loading ??= importer().then(
        (arrived) => (module.ready = arrived),
        (cause: unknown) => {
          loading = undefined;
          // A bundled page loads each call's code on first use: its chunks must be served.
          throw new ConnectionError('The SDK could not load the code of this call; nothing was sent.', {
            cause: Object.assign(new Error('code not loaded', { cause }), { code: NOT_LOADED }),
          });
        },
      )),
  };
  return module;
}
