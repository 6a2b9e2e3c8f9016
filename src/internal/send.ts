/**
 * The one way a request leaves the SDK: a declared endpoint's, a helper's and a built one's
 * (`client.request`, a bulk chunk) alike. The transport (internal/attempts.ts, and ky) loads
 * with the first request.
 */
import type { WithResponse } from '../core/api-promise.js';
import type { CallOptions } from '../core/options.js';
import type { RequestSummary } from '../errors/index.js';
import { abortedByCaller } from './attempt-clock.js';
import type { CoreInternals } from './core-internals.js';
import { deadlineOf } from './deadline.js';
import { asTypedError } from './input.js';
import { onFirstUse } from './on-first-use.js';
import { scrubText } from './redaction.js';
import { type ApiRequest, requestUrl } from './request.js';

/**
 * The code that sends: ky and the call machinery, loaded by the first request (a process that
 * never sends pays for neither), and outside a page the SDK's User-Agent (a page never loads it:
 * setting the header there would force a CORS preflight).
 */
const sendingCode = onFirstUse(() =>
  Promise.all([import('./attempts.js'), import('ky'), typeof document === 'undefined' ? import('./user-agent.js') : undefined]).then(
    ([attempts, ky, agent]) => ({ Attempts: attempts.Attempts, ky, agent: agent?.SDK_USER_AGENT }),
  ),
);

/**
 * Sends `apiRequest` (its input already checked) with the client's settings and `options` (the
 * client's defaults already under them): resolves with the result, rejects with a DeliveryError only.
 */
export function send<T>(
  internals: CoreInternals,
  apiRequest: ApiRequest<T>,
  options: CallOptions,
  deadlineAt = deadlineOf(internals, options),
): Promise<WithResponse<T>> {
  const { config } = internals;
  let url: string;
  let request: RequestSummary;
  try {
    url = requestUrl(config.baseUrl, apiRequest);
    request = { method: apiRequest.method, url: scrubText(url, options.apiKey === undefined ? config.secrets : [options.apiKey, ...config.secrets]) };
  } catch (error) {
    return Promise.reject(asTypedError(error));
  }
  if (options.signal?.aborted) return Promise.reject(abortedByCaller(`${request.method} ${request.url}`, options.signal));
  const loaded = sendingCode.ready;
  if (loaded !== undefined) return new loaded.Attempts<T>(loaded.ky, config, apiRequest, options, request, url, deadlineAt, loaded.agent).run();
  return sendingCode.load().then((code) => new code.Attempts<T>(code.ky, config, apiRequest, options, request, url, deadlineAt, code.agent).run());
}
