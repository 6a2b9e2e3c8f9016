/**
 * The code that turns what the service answered into error classes (error-mapping.ts), loaded by
 * the first answer that needs it: a page whose calls succeed never loads the classes of every code.
 */
import { type RequestSummary, ResponseShapeError } from '../errors/index.js';
import { onFirstUse } from './on-first-use.js';

type ErrorMapping = typeof import('./error-mapping.js');

const errorMapping = onFirstUse(() => import('./error-mapping.js'));

/**
 * The error mapping, to read an answer of `request`. When it cannot be loaded the answer cannot be
 * read: a `ResponseShapeError` naming the status (the request was sent, so it may have acted).
 */
export async function errorMappingFor(request: RequestSummary, status: number): Promise<ErrorMapping> {
  try {
    return errorMapping.ready ?? (await errorMapping.load());
  } catch (cause) {
    throw new ResponseShapeError(`${request.method} ${request.url} answered ${status}; the SDK's code to read it could not be loaded`, {
      status,
      request,
      cause,
    });
  }
}
