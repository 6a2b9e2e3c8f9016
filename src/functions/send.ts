import { APIPromise } from '../core/api-promise.js';
import type { Endpoint } from '../core/endpoint.js';
import { DeliveryError, ValidationError } from '../errors/index.js';
import { coreInternals, type DeliveryCore, type Validation, validateSetting } from './core.js';
import type { RequestOptions } from './options.js';

export type { Validation } from './core.js';

/**
 * How `options` says a call's input is checked: the call's `validate` wins over the client's.
 * Throws a ConfigurationError for a `validate` that names no client-side rule.
 *
 * @internal
 */
export function validationOf(core: DeliveryCore, options: RequestOptions | null | undefined): Validation {
  const { validation } = coreInternals(core);
  return validateSetting(options?.validate, 'Request option `validate`') ?? validation;
}

/**
 * The one way a standalone function calls the API: `build` checks the input (as `validation`
 * says) and returns the endpoint to send, or a promise of it. Whatever `build` throws (or its
 * promise rejects with) rejects the returned promise and nothing is sent.
 *
 * @internal
 */
export function send<T>(
  core: DeliveryCore,
  options: RequestOptions | undefined,
  build: (validation: Validation) => Endpoint<T> | Promise<Endpoint<T>>,
): APIPromise<T> {
  let endpoint: Endpoint<T> | Promise<Endpoint<T>>;
  try {
    endpoint = build(validationOf(core, options));
  } catch (error) {
    return new APIPromise(Promise.reject(asTypedError(error)));
  }
  const { http } = coreInternals(core);
  // A build that loads its schemas on demand (only for input the plain check refused) settles later.
  if (endpoint instanceof Promise)
    return new APIPromise(
      endpoint.then(
        (ready) => http.request(ready, options).withResponse(),
        (error) => Promise.reject(asTypedError(error)),
      ),
    );
  return http.request(endpoint, options);
}

/** Input that throws while read (a revoked Proxy, a getter that throws) is still the caller's input: a typed error, not a TypeError. */
function asTypedError(error: unknown): DeliveryError {
  return error instanceof DeliveryError ? error : new ValidationError([{ path: [], message: 'could not be read' }], { cause: error });
}
