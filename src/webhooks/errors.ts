import { DeliveryError, type DeliveryErrorOptions } from '../errors/base.js';

/**
 * A webhook body that is not the service's state-change event: not JSON, not an object, or a
 * field of the wrong type. `field` names the field (`'state'`, `'deliveryPromiseDate'`); it is
 * `undefined` when the body as a whole is wrong.
 *
 * `createWebhookHandler` answers it with 400 and `{ error, field }`.
 *
 * @example
 * ```ts
 * try { parseWebhookEvent(body); }
 * catch (err) {
 *   if (err instanceof WebhookPayloadError) console.warn(err.field, err.message);
 * }
 * ```
 */
export class WebhookPayloadError extends DeliveryError {
  override name = 'WebhookPayloadError';
  /** The field at fault, or `undefined` when the body as a whole is wrong. */
  readonly field: string | undefined;

  constructor(message: string, options: DeliveryErrorOptions & { field?: string | undefined } = {}) {
    super(`Malformed webhook body: ${options.field === undefined ? '' : `${options.field}: `}${message}`, options);
    this.field = options.field;
  }
}

/**
 * The order tracker's store failed (Redis unreachable, a script refused, an unreadable entry). For
 * `track`, the event may or may not have been recorded: thrown from a webhook callback, it makes
 * `createWebhookHandler` answer 500, the service delivers the event again, and the repeat is
 * recorded then, or reported as a `duplicate` that is not `stale` when it is still the latest.
 * The store's own error is `cause`.
 */
export class TrackerStoreError extends DeliveryError {
  override name = 'TrackerStoreError';
  /** The tracker method that failed. */
  readonly operation: 'track' | 'current' | 'history' | 'forget';
  /** The order it concerned. */
  readonly trackingNumber: string;

  constructor(message: string, options: DeliveryErrorOptions & { operation: TrackerStoreError['operation']; trackingNumber: string }) {
    super(message, options);
    this.operation = options.operation;
    this.trackingNumber = options.trackingNumber;
  }
}
