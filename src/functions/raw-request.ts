/** `client.request`: loaded by its first call, so a page that never makes one does not carry it. */
import type { WithResponse } from '../core/api-promise.js';
import type { HttpMethod, QueryValue } from '../core/http.js';
import type { RequestOptions } from '../core/options.js';
import { asTypedError, snapshotOf, writeJson } from '../internal/input.js';
import type { ApiRequest } from '../internal/request.js';
import { validationOf } from '../internal/skip-rules.js';
import { coreInternals, type DeliveryCore } from './delivery-core.js';
import { sendBuilt } from './endpoint.js';

/**
 * `client.request`: an endpoint the SDK does not declare, sent with the client's settings. Its
 * body is only read into JSON (no spec rule is known for it); a POST is not repeated when its
 * outcome is unknown, as for every declared one.
 */
export function sendRaw<T>(core: DeliveryCore, raw: unknown, options: RequestOptions | undefined): Promise<WithResponse<T>> {
  let request: ApiRequest<T>;
  try {
    validationOf(coreInternals(core), options);
    // `?? {}`: a JavaScript caller's null becomes a ValidationError naming `method`, not a TypeError.
    const { method, path, query, body } = (raw ?? {}) as { method?: HttpMethod; path?: string; query?: Record<string, QueryValue>; body?: unknown };
    request = { method: method as HttpMethod, path: path as string, query, json: writeJson(snapshotOf(body)) };
  } catch (error) {
    return Promise.reject(asTypedError(error));
  }
  return sendBuilt(core, request, options);
}
