import { APIPromise } from '../core/api-promise.js';
import type { Endpoint } from '../core/endpoint.js';
import { DeliveryError, ValidationError } from '../errors/index.js';
import { type Checked, checkInput, type InputCheck } from '../schemas/check.js';
import { resolveValidation, type Validation } from '../schemas/skip-rules.js';
import { coreInternals, type DeliveryCore } from './delivery-core.js';
import type { RequestOptions } from './options.js';

/**
 * A call whose input is checked: the input, the check it must pass (one of schemas/check.ts), and
 * the endpoint to send it to, made from the input as checked (its JSON is the body).
 *
 * Internal: not part of the public surface.
 */
export interface CheckedCall<T> {
  readonly input: unknown;
  /** None: the input is only read into its wire form and sent as JSON. */
  readonly check?: InputCheck | undefined;
  readonly endpoint: (checked: Checked) => Endpoint<T>;
}

/**
 * How `options` says a call's input is checked, resolved once: the call's `validate` wins over
 * the client's. A ConfigurationError for a `validate` that names no client-side rule.
 *
 * @internal
 */
export function validationOf(core: DeliveryCore, options: RequestOptions | null | undefined): Validation {
  const { validation } = coreInternals(core);
  return resolveValidation(options?.validate, 'Request option `validate`') ?? validation;
}

/**
 * The one way a standalone function calls the API. `build` reads the arguments and returns the
 * endpoint, or a {@link CheckedCall} whose input goes through the one checking step
 * (schemas/check.ts) as the call's `validate` says; the body sent is the JSON that was checked.
 * Whatever `build` or the check throws rejects the returned promise, as a typed error, and nothing
 * is sent.
 *
 * @internal
 */
export function callApi<T>(
  core: DeliveryCore,
  options: RequestOptions | undefined,
  build: () => Endpoint<T> | CheckedCall<T> | Promise<Endpoint<T> | CheckedCall<T>>,
): APIPromise<T> {
  let ready: Endpoint<T> | Promise<Endpoint<T>>;
  try {
    const validation = validationOf(core, options);
    const call = build();
    ready = call instanceof Promise ? call.then((resolved) => endpointOf(resolved, validation)) : endpointOf(call, validation);
  } catch (error) {
    return new APIPromise(Promise.reject(asTypedError(error)));
  }
  const { http } = coreInternals(core);
  if (!(ready instanceof Promise)) return http.request(ready, options);
  // A build that reads first, or a check that loads the schemas (only for input the plain check refused), settles later.
  return new APIPromise(
    ready.then(
      (endpoint) => http.request(endpoint, options).withResponse(),
      (error) => Promise.reject(asTypedError(error)),
    ),
  );
}

function endpointOf<T>(call: Endpoint<T> | CheckedCall<T>, validation: Validation): Endpoint<T> | Promise<Endpoint<T>> {
  if (!('input' in call)) return call;
  const checked = checkInput(call.check, call.input, validation);
  return checked instanceof Promise ? checked.then(call.endpoint) : call.endpoint(checked);
}

/**
 * Input that throws while read (a revoked Proxy, a getter that throws) is still the caller's input: a typed error, not a TypeError.
 *
 * @internal
 */
export function asTypedError(error: unknown): DeliveryError {
  return error instanceof DeliveryError ? error : new ValidationError([{ path: [], message: 'could not be read' }], { cause: error });
}
