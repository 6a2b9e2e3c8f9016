import { ValidationError } from './base.js';

/**
 * The order is in a state that does not allow what was asked (`deliveries.update` outside
 * states 10, 11, 20, 21, 22, 24, 30, 41, 47; `terminate` once the order is on its way). Thrown
 * before sending when the SDK can tell from an order you read and passed in (`source: 'client'`,
 * nothing sent), and for the service's own refusal because of the order's state
 * (`source: 'server'`, the service's `ApiError` as `cause`, with its status and body).
 */
export class OrderStateError extends ValidationError {
  override name = 'OrderStateError';
  /** The order's state code, as read; undefined when the service refused without naming it. */
  readonly state: number | undefined;
  /** The states in which the operation is allowed; empty when the SDK does not know them. */
  readonly allowedStates: readonly number[];

  constructor(options: {
    trackingNumber: string;
    state: number | undefined;
    allowedStates: readonly number[];
    operation: string;
    source?: 'client' | 'server' | undefined;
    cause?: unknown;
  }) {
    const { trackingNumber, state, allowedStates, operation } = options;
    const allowed = allowedStates.length === 0 ? '' : `; ${operation} is allowed only in states ${allowedStates.join(', ')}`;
    super(
      [
        {
          path: ['state', 'code'],
          message: state === undefined ? `does not allow ${operation}${allowed}` : `is ${state}${allowed || `, which does not allow ${operation}`}`,
        },
      ],
      {
        subject: `Order ${trackingNumber} cannot be changed`,
        cause: options.cause,
        source: options.source ?? 'client',
      },
    );
    this.state = state;
    this.allowedStates = allowedStates;
  }
}
