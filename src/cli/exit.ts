/**
 * The exit codes of `delivery-sdk`, documented in docs/cli.md so that a pipeline can branch on
 * them without reading text. Where several apply, the first of {@link PRECEDENCE} wins.
 */
import { AccountErrorCode, ApiError, AuthenticationError, ConnectionError, PermissionDeniedError, SubscriptionRequiredError } from '../index.js';

export const EXIT = {
  /** Every row created or existed; the command did what it was asked. */
  ok: 0,
  /** Some rows refused (the rest created), an order not found, a label not printable. */
  failed: 1,
  /** A usage or input-file error: nothing was sent. */
  usage: 2,
  /** The key or the subscription was refused (401, 403, errorCode 1028 or 8000002). */
  keyRefused: 3,
  /** The service was unreachable or timed out: the orders that may exist are in the results. */
  unreachable: 4,
  /** Interrupted (Ctrl-C, SIGINT or SIGTERM), after writing every outcome known. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The order in which codes win over each other when several apply. */
export const PRECEDENCE: readonly ExitCode[] = [EXIT.interrupted, EXIT.keyRefused, EXIT.unreachable, EXIT.usage, EXIT.failed, EXIT.ok];

/** The code that wins among `codes` (0 when there is none). */
export function firstOf(codes: Iterable<ExitCode>): ExitCode {
  const given = new Set(codes);
  return PRECEDENCE.find((code) => given.has(code)) ?? EXIT.ok;
}

/** A wrong command line or input file, found before anything was sent. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The service refused the key or the account's subscription: every further call would be refused alike. */
export function isKeyRefusal(error: unknown): boolean {
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError || error instanceof SubscriptionRequiredError) return true;
  const code = (error as { errorCode?: unknown } | undefined)?.errorCode;
  if (code === AccountErrorCode.InvalidApiKey || code === AccountErrorCode.SubscriptionRequired) return true;
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}

/** The service could not be reached, or did not answer in time. */
export const isUnreachable = (error: unknown): boolean => error instanceof ConnectionError;
