import { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/config.js';
import type { Endpoint } from '../core/http.js';
import type { ValidateOptions } from '../schemas/rules-off.js';
import { type DeliveryCore, coreInternals } from './core.js';

/**
 * How a call's input is checked: `false` for not at all, else the rules to leave out. The
 * call's `validate` option wins over the client's.
 */
export type Validation = false | ValidateOptions;

/**
 * How a call's input is checked, as `send` passes it to `build`; for the functions that send
 * more than one request (bulk). A `ConfigurationError` for a `validate` option that is not one.
 *
 * @internal
 */
export function validationFor(core: DeliveryCore, options: RequestOptions | undefined): Validation {
  return coreInternals(core).http.validation(options ?? undefined);
}

/**
 * The one way a standalone function calls the API: `build` checks the input (as `validation`
 * says) and returns the endpoint to send, or a promise of it. Whatever `build` throws (or its
 * promise rejects with) rejects the returned promise and nothing is sent.
 *
 * @internal
 */
export function send<T>(core: DeliveryCore, options: RequestOptions | undefined, build: (validation: Validation) => Endpoint<T> | Promise<Endpoint<T>>): APIPromise<T> {
  let endpoint: Endpoint<T> | Promise<Endpoint<T>>;
  let http: ReturnType<typeof coreInternals>['http'];
  try {
    http = coreInternals(core).http;
    endpoint = build(validationFor(core, options));
  } catch (error) {
    return new APIPromise(Promise.reject(error));
  }
  // A build that loads its schemas on demand (only for input the plain check refused) settles later.
  if (endpoint instanceof Promise) return new APIPromise(endpoint.then((ready) => http.request(ready, options).withResponse()));
  return http.request(endpoint, options);
}
