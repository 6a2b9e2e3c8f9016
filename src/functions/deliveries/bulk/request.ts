/**
 * One request of a bulk upload: `POST /deliveries/bulk?apiVersion=1` with a chunk's checked
 * orders, and what its answer (or its error) says of each. Reading the chunks is bulk-input.ts's,
 * scheduling them bulk.ts's.
 */

import type { RequestOptions } from '../../../core/options.js';
import type { CallTelemetry } from '../../../core/telemetry.js';
import type { BulkCreatedDelivery, BulkFailure } from '../../../errors/bulk-result.js';
import {
  ApiError,
  AuthenticationError,
  BusinessLocationRequiredError,
  CodedDeliveryError,
  ConfigurationError,
  DeliveryError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RequestAbortedError,
  type RequestSummary,
  ResponseShapeError,
  SubscriptionRequiredError,
} from '../../../errors/index.js';
import { errorMappingFor } from '../../../internal/error-mapping-loader.js';
import { asRecord, isRecord } from '../../../internal/guards.js';
import { writeJson } from '../../../internal/input.js';
import type { DeliveryCore } from '../../delivery-core.js';
import { type AnswerContext, sendBuilt } from '../../endpoint.js';
import type { ReadChunk } from './input.js';
import { type BulkResponse, FailedOutcome, readBulkResponse } from './response.js';

type ResponseContext = Pick<AnswerContext, 'status' | 'request'>;

export const BULK_PATH = '/deliveries/bulk';

/**
 * The writer of a request's body, `{ deliveries, deleteFailedDeliveries }`, for a chunk's
 * snapshots: one `JSON.stringify` of the whole body (writeJson's), so that no copy of the orders'
 * JSON is made to wrap it.
 */
export const bodyWriter =
  (deleteFailedDeliveries: boolean) =>
  (deliveries: unknown[]): string =>
    writeJson({ deliveries, deleteFailedDeliveries }) as string;

/**
 * Errors every later chunk would get too, sending on would only repeat them: the account's
 * refusals (401 and 1028, 403, a lapsed subscription 8000002 whatever its status), a wrong
 * `baseUrl` (404), no pickup location (1073), the caller's abort. Whatever the answer carries
 * besides, the upload stops at the first one.
 */
const stopsUpload = (error: DeliveryError): boolean =>
  [
    AuthenticationError,
    PermissionDeniedError,
    SubscriptionRequiredError,
    NotFoundError,
    BusinessLocationRequiredError,
    ConfigurationError,
    RequestAbortedError,
  ].some((kind) => error instanceof kind);

/** What one request made of the orders it sent, and what the upload must learn from it. */
export interface PostedChunk {
  created: BulkCreatedDelivery[];
  failed: BulkFailure[];
  /** Every id the service reported created. */
  createdIds: string[];
  /** An error every later chunk would get too (a 401, an abort): the upload sends no more. */
  stop?: DeliveryError | undefined;
  /** The service's error answer that carried a bulk outcome (a 1061, or another code with `data`). */
  serviceError?: ServiceAnswerError | undefined;
}

/** An error the service answered with, carrying its body: a status's class, a spec code's, or a refusal of fields (777). */
export type ServiceAnswerError = ApiError | CodedDeliveryError | InvalidRequestError;

/**
 * Sends the orders of a chunk that passed the check, as they were checked; nothing when it has none.
 *
 * @internal
 */
export async function postChunk(
  core: DeliveryCore,
  { references, indexes, body }: Pick<ReadChunk, 'references' | 'indexes' | 'body'>,
  requestOptions: RequestOptions,
  observer?: CallTelemetry,
): Promise<PostedChunk> {
  const posted: PostedChunk = { created: [], failed: [], createdIds: [] };
  if (references.length === 0) return posted;
  let context: ResponseContext = { status: 200, request: { method: 'POST', url: BULK_PATH } };
  /** The error of an order no answer spoke of: the call's own when it failed, else made on first need (rarely: an Error a chunk costs a stack trace). */
  let unreported: DeliveryError | undefined;
  let mayExist = true; // an answer that does not speak of an order leaves it open
  /** What the service said of the orders: a 2xx answer's data, or the `data` of an error answer (a 1061) with that error. */
  let answer: { data: unknown; status: number; request: RequestSummary; error?: ServiceAnswerError } | undefined;
  try {
    const transform = (data: unknown, answered: ResponseContext): unknown => ((context = answered), data);
    // The orders as they were checked, written once when their chunk was read: nothing of the caller's is read again.
    const { data } = await sendBuilt(
      core,
      { method: 'POST', path: BULK_PATH, query: { apiVersion: 1 }, json: body, idempotent: false, transform, traced: observer },
      requestOptions,
    );
    answer = { data, ...context };
  } catch (caught) {
    const error = caught instanceof DeliveryError ? caught : new DeliveryError(`POST ${BULK_PATH} failed`, { cause: caught });
    unreported = error;
    // An account refusal refuses the whole chunk, whatever `data` it carries; the upload stops.
    if (stopsUpload(error)) posted.stop = error;
    // A 1061 carries the same answer in its body's `data`: what it created must not be lost.
    const answered = error instanceof ApiError || error instanceof CodedDeliveryError || error instanceof InvalidRequestError;
    const data = posted.stop === undefined && answered ? asRecord(error.body)['data'] : undefined;
    if (isRecord(data) || Array.isArray(data)) {
      const { status = 400, request = context.request } = error as Partial<ApiError>;
      answer = { data, status, request, error: error as ServiceAnswerError };
    } else {
      mayExist = error.mayExist;
    }
  }
  let read: BulkResponse | undefined;
  if (answer !== undefined) {
    // An answer whose reading code cannot be loaded leaves every order of the chunk open (`mayExist`).
    const mapping = await errorMappingFor(answer.request, answer.status).catch((unreadable: DeliveryError) => void (unreported = unreadable));
    if (mapping !== undefined) {
      read = readBulkResponse(answer.data, references, { ...answer, orderError: mapping.bulkOrderError });
      posted.serviceError = answer.error;
    }
  }
  if (read !== undefined) posted.createdIds = read.createdIds;
  const answered = context;
  indexes.forEach((at, position) => {
    const result = read?.outcomes[position];
    if (result === undefined) {
      unreported ??= new ResponseShapeError(`POST ${BULK_PATH} answered ${answered.status} without reporting this order`, answered);
      posted.failed.push({ index: at, error: unreported, mayExist });
    } else if (result instanceof FailedOutcome) posted.failed.push({ index: at, error: result.error, mayExist: result.mayExist });
    else {
      // An object of the SDK's own, made for this order by the answer's reader: its input index is set in it, not copied.
      result.index = at;
      posted.created.push(result);
    }
  });
  return posted;
}
