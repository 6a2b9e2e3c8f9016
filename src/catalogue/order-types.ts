/**
 * Numeric order types sent in the `type` field of `POST /deliveries`.
 * Numeric literals (`type: 10`) are accepted as well.
 */
export const DeliveryType = {
  Deliver: 10,
  CashCollection: 15,
  CustomerReturnPickup: 25,
  Exchange: 30,
} as const;
export type DeliveryType = (typeof DeliveryType)[keyof typeof DeliveryType];

/** String order types of fulfillment orders (the business's stock ships from the service's warehouses). */
export const FulfillmentType = {
  Send: 'FXF_SEND',
  CustomerReturnPickup: 'CUSTOMER_RETURN_PICKUP',
} as const;
export type FulfillmentType = (typeof FulfillmentType)[keyof typeof FulfillmentType];

/**
 * Order type strings carried by webhooks. `CASH_COLLECTION` is an assumption: the spec
 * does not show the webhook type of Cash Collection orders (see docs/assumptions.md).
 */
export const WebhookOrderType = {
  Send: 'SEND',
  Exchange: 'EXCHANGE',
  CustomerReturnPickup: 'CUSTOMER_RETURN_PICKUP',
  ReturnToOrigin: 'RTO',
  SignAndReturn: 'SIGN_AND_RETURN',
  FulfillmentSend: 'FXF_SEND',
  CashCollection: 'CASH_COLLECTION',
} as const;
export type WebhookOrderType = (typeof WebhookOrderType)[keyof typeof WebhookOrderType];

/** The webhook type string of each order type the API creates. */
export const webhookTypeOf: Readonly<Record<DeliveryType | FulfillmentType, WebhookOrderType>> = {
  10: 'SEND',
  15: 'CASH_COLLECTION',
  25: 'CUSTOMER_RETURN_PICKUP',
  30: 'EXCHANGE',
  FXF_SEND: 'FXF_SEND',
  CUSTOMER_RETURN_PICKUP: 'CUSTOMER_RETURN_PICKUP',
};
