/**
 * A `telemetry` (the client's, a webhook handler's) made unable to change an outcome. What one of
 * its methods throws, or the promise it returns rejects with, is dropped: the method then gives
 * `undefined`, which the SDK reads as "nothing to record". A method it lacks does nothing. The
 * objects its methods return (a call's, an attempt's, a chunk's) are guarded the same way.
 *
 * Its time is counted apart: an attempt's clocks (internal/attempt-clock.ts) leave it out. It
 * imports nothing: a webhook page loads it with its first request, in a chunk of its own.
 */
/** Milliseconds the process has spent in the methods of guarded telemetry, all clients and handlers together. */
let spent = 0;

/** The milliseconds spent in telemetry so far: an attempt's clock leaves out what grows meanwhile. */
export const telemetrySpent = (): number => spent;

const nothing = (): undefined => undefined;

/** `telemetry` guarded; the caller has checked that it is an object. */
export function guarded<T extends object>(telemetry: T): T {
  return new Proxy(telemetry, {
    get(target, key) {
      const member: unknown = Reflect.get(target, key);
      // The SDK only calls methods: one that is missing does nothing (`then` stays missing: a guarded object is no promise).
      if (typeof member !== 'function') return member ?? (typeof key === 'string' && key !== 'then' ? nothing : member);
      return (...args: unknown[]) => {
        const started = performance.now();
        try {
          const made: unknown = member.apply(target, args);
          // An async method: its rejection must not go unhandled (a crash, in Node), and its result comes too late.
          if (typeof (made as Partial<PromiseLike<unknown>> | undefined)?.then === 'function')
            return void (made as PromiseLike<unknown>).then(undefined, nothing);
          return Object(made) === made ? guarded(made as object) : made;
        } catch {
          return undefined;
        } finally {
          spent += performance.now() - started;
        }
      };
    },
  });
}
