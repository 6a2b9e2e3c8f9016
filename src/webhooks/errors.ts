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
    super(options.field === undefined ? `Malformed webhook body: ${message}` : `Malformed webhook body: ${options.field}: ${message}`, options);
    this.field = options.field;
  }
}
