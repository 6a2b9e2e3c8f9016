/**
 * The exit codes of `delivery-sdk`, documented in docs/cli.md so that a pipeline can branch on
 * them without reading text, and the one mapping from what a command ended with to its code
 * ({@link exitCodeOf}): every command uses it, and so can another front end of the same
 * configuration (an MCP server). Where several codes apply, the first of {@link PRECEDENCE} wins.
 */
import {
  AccountErrorCode,
  ApiError,
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  OrderStateError,
  PartialResultError,
  PermissionDeniedError,
  RateLimitError,
  RedirectError,
  RequestAbortedError,
  ResponseShapeError,
  ServerError,
  SubscriptionRequiredError,
  ValidationError,
} from '../index.js';

export const EXIT = {
  /** Every row created or existed; the command did what it was asked. */
  ok: 0,
  /** Some rows refused or not sent, an order not found, refused, or not in a state that allows the change; a label not printable. */
  failed: 1,
  /** A usage or input-file error: nothing was sent. */
  usage: 2,
  /** The key or the subscription was refused (401, 403, errorCode 1028 or 8000002). */
  keyRefused: 3,
  /** The service was unreachable, timed out, or failed (5xx, 429): the orders that may exist are in the results. */
  unreachable: 4,
  /** Interrupted by Ctrl-C (SIGINT), after writing every outcome known: 128 + 2. */
  interrupted: 130,
  /** Stopped by SIGTERM (a cancelled CI job), a hang-up (SIGHUP), or because the process that started it went away, after writing every outcome known: 128 + 15. */
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The order in which codes win over each other when several apply. */
export const PRECEDENCE: readonly ExitCode[] = [EXIT.terminated, EXIT.interrupted, EXIT.keyRefused, EXIT.unreachable, EXIT.usage, EXIT.failed, EXIT.ok];

/** The code that wins among `codes` (0 when there is none). */
export function firstOf(codes: Iterable<ExitCode>): ExitCode {
  const given = new Set(codes);
  return PRECEDENCE.find((code) => given.has(code)) ?? EXIT.ok;
}

/** A wrong command line or input file, found before anything was sent. */
export class UsageError extends Error {
  override name = 'UsageError';

  /** @param help The command whose `--help` shows the usage, when it is not the one that failed (an unknown command's). */
  constructor(
    message: string,
    readonly help?: string,
  ) {
    super(message);
  }
}

/** The service refused the key or the account's subscription: every further call would be refused alike. */
export function isKeyRefusal(error: unknown): boolean {
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError || error instanceof SubscriptionRequiredError) return true;
  const code = (error as { errorCode?: unknown } | undefined)?.errorCode;
  if (code === AccountErrorCode.InvalidApiKey || code === AccountErrorCode.SubscriptionRequired) return true;
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}

/**
 * The service could not be reached, did not answer in time, or failed rather than refused: a
 * connection error, a timeout, a 5xx, a 429 still there after the retries, an answer that is not
 * the service's (a proxy's page). Running the same command again later is the remedy.
 */
export const isUnreachable = (error: unknown): boolean =>
  error instanceof ConnectionError || error instanceof ServerError || error instanceof RateLimitError || error instanceof ResponseShapeError;

/**
 * The exit code of a command that ended with `error`, by its cause:
 * 4 unreachable, timed out or failing; 3 the key or subscription refused; 2 the command line,
 * the configuration or the input refused before anything was sent; 1 the service's refusal of
 * what was asked (no such order, not allowed in the order's state). A call that failed part-way
 * (`PartialResultError`) exits as its cause.
 */
export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof RequestAbortedError) return EXIT.interrupted;
  if (error instanceof PartialResultError) return exitCodeOf(error.cause);
  if (isKeyRefusal(error)) return EXIT.keyRefused;
  if (isUnreachable(error)) return EXIT.unreachable;
  // The order's state does not allow it: the service's answer about the order, whichever side read it, not a wrong command.
  if (error instanceof OrderStateError) return EXIT.failed;
  // Refused before sending (nothing went out), or a base URL the service redirects away from: fix the command or its configuration.
  if ((error instanceof ValidationError && error.source === 'client') || error instanceof ConfigurationError || error instanceof RedirectError)
    return EXIT.usage;
  return EXIT.failed;
}
