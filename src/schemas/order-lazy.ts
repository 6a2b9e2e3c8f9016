/**
 * The order checks of the send path, with zod loaded only when needed: the plain check of
 * order-fast.ts decides for a valid order, and only an order it refuses loads the schemas
 * (`import()`, a chunk of its own in a browser bundle) for today's errors, or the copy to send.
 */
import type { FulfillmentOrder, FulfillmentReturnOrder, OrderInput } from './order.js';
import { sendsAsWritten } from './order-fast.js';
import { rulesToSkip, type ValidateOptions } from './skip-rules.js';

type Family = 'order' | 'fulfillment' | 'fulfillmentReturn';
interface Checked {
  order: OrderInput;
  fulfillment: FulfillmentOrder;
  fulfillmentReturn: FulfillmentReturnOrder;
}

const TYPES: Readonly<Record<Family, readonly unknown[]>> = {
  order: [10, 15, 25, 30, 'FXF_SEND', 'CUSTOMER_RETURN_PICKUP'],
  fulfillment: ['FXF_SEND', 'CUSTOMER_RETURN_PICKUP'],
  fulfillmentReturn: ['CUSTOMER_RETURN_PICKUP'],
};

/**
 * `input` itself when the plain check passes it (not copied: the caller owns an order it changes
 * during a call); else a promise of the schemas' answer: the copy to send, or their error.
 *
 * @internal
 */
export function checkedOrder<F extends Family>(family: F, input: unknown, options: ValidateOptions | undefined): Checked[F] | Promise<Checked[F]> {
  try {
    if (sendsAsWritten(input, rulesToSkip(options, 'validate')) && TYPES[family].includes((input as Record<string, unknown>)['type']))
      return input as Checked[F];
  } catch {
    // a `skip` that is not one, a getter that threw: the schemas say what is wrong
  }
  return import('./on-demand.js').then(({ orderValidators }) => orderValidators[family](input, options) as Checked[F]);
}
