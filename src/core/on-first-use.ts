/** Code loaded on first use, once: what a page or a process that never needs it does not pay for. */
export interface OnFirstUse<M> {
  /** The module once it has arrived: a caller that finds it goes on at once, with no promise in between. */
  readonly ready: M | undefined;
  /** The load in flight, or a new one after a failure (a page whose chunks were redeployed, a connection lost). */
  load(): Promise<M>;
}

/**
 * `importer` run on the first `load()` and never again once it succeeds; a failed load is tried
 * again by the next. The one home of "load once, keep it once arrived" (sending code, schemas,
 * each namespace's operations).
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
          throw cause;
        },
      )),
  };
  return module;
}
