import { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/config.js';
import type { Endpoint } from '../core/http.js';
import { DeliveryError, ValidationError } from '../errors/index.js';
import type { ValidateOptions } from '../schemas/rules-off.js';
import { type DeliveryCore, coreInternals } from './core.js';

/**
 * How a call's input is checked: `false` for not at all, else the rules to leave out. The
 * call's `validate` option wins over the client's.
 */
export type Validation = false | ValidateOptions;

/**
 * The one way a standalone function calls the API: `build` checks the input (as `validation`
 * says) and returns the endpoint to send. Whatever `build` throws rejects the returned promise
 * and nothing is sent.
 *
 * @internal
 */
export function send<T>(core: DeliveryCore, options: RequestOptions | undefined, build: (validation: Validation) => Endpoint<T>): APIPromise<T> {
  let endpoint: Endpoint<T>;
  let http: ReturnType<typeof coreInternals>['http'];
  try {
    http = coreInternals(core).http;
    endpoint = build(http.validation(options ?? undefined));
  } catch (error) {
    // Input that throws while read (a revoked Proxy, a getter that throws) is still the caller's
    // input: a typed error, not a TypeError.
    const typed = error instanceof DeliveryError ? error : new ValidationError([{ path: [], message: 'could not be read' }], { cause: error });
    return new APIPromise(Promise.reject(typed));
  }
  return http.request(endpoint, options);
}
