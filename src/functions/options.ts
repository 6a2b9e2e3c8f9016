import type { CallOptions, TransportOptions } from '../core/options.js';
import type { ValidateSetting } from '../schemas/skip-rules.js';

/** Options of {@link DeliveryClient} and of `DeliveryCore` (`delivery-sdk/functions`). */
export interface DeliveryClientOptions extends TransportOptions {
  /**
   * Check inputs against the spec's rules before sending. Default true. `{ skip: [codes] }` checks
   * every rule but those named, e.g. `{ skip: [ErrorCode.DeliveryImagesRequired] }`.
   */
  validate?: ValidateSetting | undefined;
}

/** Options every method takes as its last argument; they override the client's for one call. */
export interface RequestOptions extends CallOptions {
  /**
   * Replaces the client's `validate` for this call: `false` sends the input unchecked, `{ skip }`
   * leaves out the rules named. The service's own answer still maps to the coded classes.
   */
  validate?: ValidateSetting | undefined;
}
