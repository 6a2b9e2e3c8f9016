import { ValidationError } from './base.js';

/**
 * The order is in a state that does not allow what was asked (`deliveries.update` outside
 * states 10, 11, 20, 21, 22, 24, 30, 41, 47). Thrown before sending, when the SDK can tell from
 * an order you read and passed in; nothing was sent. When the SDK cannot tell, the service's
 * own refusal arrives as an `ApiError`.
 */
export class OrderStateError extends ValidationError {
  override name = 'OrderStateError';
  /** The order's state code, as read. */
  readonly state: number;
  /** The states in which the operation is allowed. */
  readonly allowedStates: readonly number[];

  constructor(options: { trackingNumber: string; state: number; allowedStates: readonly number[]; operation: string }) {
    const { trackingNumber, state, allowedStates, operation } = options;
    super([{ path: ['state', 'code'], message: `is ${state}; ${operation} is allowed only in states ${allowedStates.join(', ')}` }], {
      subject: `Order ${trackingNumber} cannot be changed`,
    });
    this.state = state;
    this.allowedStates = allowedStates;
  }
}
