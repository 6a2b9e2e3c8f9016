import type { WebhookOrderType } from '../catalogue/order-types.js';
import type { DeliveryState } from '../catalogue/states.js';

type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
type LeadingDigit = Exclude<Digit, '0'>;
type ToNumber<S> = S extends `${infer N extends number}` ? N : never;
type Below1000 = ToNumber<Digit | `${LeadingDigit}${Digit}` | `${LeadingDigit}${Digit}${Digit}`>;

/**
 * A state code the SDK does not know yet (the service may add some). It is a set of numeric
 * literals (0-999 without the known codes) rather than `number`, because a plain `number`
 * member would keep `event.state === 47` from narrowing to the Exception event.
 */
export type UnknownStateCode = Exclude<Below1000, DeliveryState>;

/**
 * A field of a webhook body that was sent but could not be read as the spec has it: the event
 * leaves it out (or says how it was read), and `raw` keeps the value as sent.
 */
export interface WebhookIssue {
  /** The field, e.g. `'deliveryPromiseDate'`. */
  readonly field: string;
  /** What was wrong, e.g. `expected a whole number, received string "two"`. */
  readonly message: string;
}

/**
 * The fields every state-change event carries, whatever its state (spec, Events 3). Only
 * `_id`, `trackingNumber` and `state` are sure to be there: a webhook is never refused for
 * anything else, so that no state change is lost.
 */
export interface WebhookEventBase {
  /** The order's id. */
  readonly _id: string;
  /** The tracking number, always a string (the service's examples send a number). */
  readonly trackingNumber: string;
  /** The order's type string; a type the SDK does not know yet is kept (`typeKnown: false`). Absent when the body had none. */
  readonly type?: WebhookOrderType | (string & {});
  /** When the state changed, epoch milliseconds (a numeric or ISO date string is read too). Absent when the body had none. */
  readonly timeStamp?: number;
  /** Proof of delivery. */
  readonly isConfirmedDelivery?: boolean;
  /** The promised delivery date as sent, `DD-MM-YYYY` in the spec. */
  readonly deliveryPromiseDate?: string;
  /** `deliveryPromiseDate` as a `Date` at midnight UTC of that day (`DD-MM-YYYY`, or ISO `YYYY-MM-DD...`); absent, with an issue, when it reads as neither. */
  readonly deliveryPromiseDay?: Date;
  /** The reference the business sent when creating the order. */
  readonly businessReference?: string;
  /** Delivery attempts made so far. */
  readonly numberOfAttempts?: number;
  /** Whether the SDK knows `type` (one of {@link WebhookOrderType}). */
  readonly typeKnown: boolean;
  /** Whether the SDK knows both `state` and `type`. */
  readonly known: boolean;
  /** The body as received, unknown fields included. */
  readonly raw: Readonly<Record<string, unknown>>;
  /** The fields that were sent but could not be read (their values are in `raw`); absent when every field was read. */
  readonly issues?: readonly WebhookIssue[];
}

/** An event of a known state that carries neither `cod` nor the exception fields. */
export interface StateChangeEvent<S extends DeliveryState = DeliveryState> extends WebhookEventBase {
  /** The state the order reached (see `DeliveryState`, `describeState`). */
  readonly state: S;
  /** Whether the SDK knows `state`: true here, false only in {@link UnknownStateEvent}. */
  readonly stateKnown: true;
  readonly cod?: undefined;
  readonly exceptionCode?: undefined;
  readonly exceptionReason?: undefined;
}

/** Delivered (45): the money collected comes with it. */
export interface DeliveredEvent extends WebhookEventBase {
  readonly state: 45;
  readonly stateKnown: true;
  /** Amount collected from the customer; 0 when the service sent none, or sent no amount (then `issues` says so and `raw` has it). */
  readonly cod: number;
  readonly exceptionCode?: undefined;
  readonly exceptionReason?: undefined;
}

/** Exception (47): why the attempt failed. Describe the code with `describeException`. */
export interface ExceptionEvent extends WebhookEventBase {
  readonly state: 47;
  readonly stateKnown: true;
  /** Code of the forward (1-14, 100, 101) or return (20-30, 100, 101) exception tables; absent when the service sent none. */
  readonly exceptionCode?: number;
  /** The service's reason text; the SDK's catalogue text when the service sent none. */
  readonly exceptionReason: string;
  readonly cod?: undefined;
}

/** A state the SDK does not know yet: kept, never thrown away. Its extra fields are in `raw`. */
export interface UnknownStateEvent extends WebhookEventBase {
  /** The code as the service sent it. */
  readonly state: UnknownStateCode;
  /** Always false: narrow on it (`if (!event.stateKnown)`) to handle states added after this SDK version. */
  readonly stateKnown: false;
  readonly known: false;
  readonly cod?: undefined;
  readonly exceptionCode?: undefined;
  readonly exceptionReason?: undefined;
}

/** The known states whose event carries neither `cod` nor the exception fields: all but Delivered (45) and Exception (47). */
export type PlainState = Exclude<DeliveryState, 45 | 47>;

/**
 * A state-change webhook, discriminated on `state`: after `event.state === 47` the compiler
 * knows `exceptionCode`, after `event.state === 45` it knows `cod`.
 *
 * @example
 * ```ts
 * const event = parseWebhookEvent(body);
 * if (event.state === DeliveryState.Exception) notify(describeException(event.exceptionCode).reason);
 * if (event.state === DeliveryState.Delivered) recordPayment(event.trackingNumber, event.cod);
 * ```
 */
export type WebhookEvent = { [S in PlainState]: StateChangeEvent<S> }[PlainState] | DeliveredEvent | ExceptionEvent | UnknownStateEvent;

/** The event type of one state: `WebhookEventFor<47>` is {@link ExceptionEvent}. */
export type WebhookEventFor<S extends DeliveryState> = Extract<WebhookEvent, { readonly state: S }>;
