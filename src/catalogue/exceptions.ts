/** Which leg an exception happened on: to the customer, or back to the business. */
export type ExceptionDirection = 'forward' | 'return';

/** Exception reasons of deliveries to the customer (webhook `exceptionCode` in state 47). */
export const ForwardExceptionReason = {
  1: 'Retry delivery, customer not at the address',
  2: 'Retry delivery, customer changed the address',
  3: 'Postponed, customer requested another day',
  4: 'Cancellation, customer wants to open the shipment',
  5: 'Waiting for data modification, address or phone unclear or wrong',
  6: 'Cancellation at the request of the sender',
  7: 'Customer is not answering',
  8: 'Cancellation, customer refuses to receive',
  12: 'Cancellation, address outside coverage area',
  13: 'Waiting for data modification, address not clear',
  14: 'Waiting for data modification, wrong phone number',
  100: 'Bad weather',
  101: 'Suspicious consignee',
} as const;
/** An exception code of a delivery to the customer: a key of {@link ForwardExceptionReason}. */
export type ForwardExceptionCode = keyof typeof ForwardExceptionReason;

/** Exception reasons of returns to the business. */
export const ReturnExceptionReason = {
  20: 'Retry return, business changed the address',
  21: 'Postponed, business requested another day',
  22: 'Waiting for data modification, address or phone unclear or wrong',
  23: 'Business is not answering',
  24: 'Business refused to receive the shipment',
  25: 'Retry return, business not at the address',
  26: 'The order is damaged',
  27: 'Empty order',
  28: 'The order is incomplete',
  29: 'The order does not belong to the business',
  30: 'The order was opened while it should not',
  100: 'Bad weather',
  101: 'Suspicious consignee',
} as const;
/** An exception code of a return to the business: a key of {@link ReturnExceptionReason}. */
export type ReturnExceptionCode = keyof typeof ReturnExceptionReason;

/** Both tables, by direction. */
export const ExceptionReason = { forward: ForwardExceptionReason, return: ReturnExceptionReason } as const;

/** Any exception code of either table. */
export type ExceptionCode = ForwardExceptionCode | ReturnExceptionCode;

/** What {@link describeException} returns: the reason of an exception code, ready to show. */
export interface ExceptionDescription {
  /** The code as given; `undefined` when there was none (a state-47 webhook may come without one). */
  readonly code: number | undefined;
  /** The table the code was read from (given, or inferred from the code). */
  readonly direction: ExceptionDirection;
  /** False when the code is in neither table (the service may add codes); `reason` then says so. */
  readonly known: boolean;
  /** The spec's reason text, e.g. `'Customer is not answering'`. */
  readonly reason: string;
}

/**
 * The reason text of an exception code. Without a direction, codes 20-30 read as returns
 * and the rest as forward deliveries (100 and 101 mean the same in both tables). Never throws:
 * an unknown code, or none, gives `known: false`.
 *
 * @example
 * ```ts
 * if (event.state === DeliveryState.Exception) {
 *   notify(describeException(event.exceptionCode).reason); // e.g. 'Customer is not answering'
 * }
 * ```
 */
export function describeException(code: number | undefined, direction?: ExceptionDirection): ExceptionDescription {
  // Anything but a number (a webhook without exceptionCode, a JavaScript caller's junk) has no reason to look up.
  if (typeof code !== 'number')
    return { code: undefined, direction: direction === 'return' ? direction : 'forward', known: false, reason: 'Exception without a code' };
  const dir: ExceptionDirection = direction === 'return' || direction === 'forward' ? direction : code >= 20 && code <= 30 ? 'return' : 'forward';
  const table: Readonly<Record<number, string>> = ExceptionReason[dir];
  const reason = Object.hasOwn(table, code) ? table[code] : undefined;
  return reason === undefined
    ? { code, direction: dir, known: false, reason: `Unknown ${dir} exception ${code}` }
    : { code, direction: dir, known: true, reason };
}
