/** The HTTP methods {@link DeliveryClient.request} sends. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A query-string value; `undefined` leaves the parameter out. */
export type QueryValue = string | number | boolean | undefined;
