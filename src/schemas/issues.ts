import * as z from 'zod/mini';
import { type DeliveryError, formatPath, ValidationError, type ValidationIssue } from '../errors/base.js';
import { createCodedError } from '../errors/coded.js';
import { isKnownErrorCode } from '../errors/codes.js';

/** What a validator found: the value to send, or the error it would throw. */
export type CheckResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: DeliveryError };

const EXPECTED: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a finite number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
};

/** What a value is, for messages: `a number`, `an array`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isFinite(value) ? 'a number' : String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const quote = (value: unknown): string => (typeof value === 'string' ? `'${value}'` : String(value));

// zod/mini ships no English messages (they would cost bundle size); these name the problem
// the way the spec does, and the issue path names the field.
function messageOf(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'required';
      return `must be ${EXPECTED[issue.expected] ?? issue.expected} (got ${describeValue(issue.input)})`;
    case 'too_small':
      return issue.origin === 'array' ? `needs at least ${issue.minimum} item(s)` : `must be at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'array' ? `takes at most ${issue.maximum} item(s)` : `must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `must be ${issue.values.map(quote).join(' or ')}`;
    case 'invalid_key':
      return issue.issues[0]?.message ?? 'is not a valid key';
    default:
      return 'is invalid';
  }
}

const PARSE_OPTIONS = { error: messageOf } as const;

function toIssue(issue: z.core.$ZodIssue): ValidationIssue {
  const path = issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part));
  const code: unknown = issue.code === 'custom' ? issue.params?.['errorCode'] : undefined;
  return typeof code === 'number' ? { path, message: issue.message, errorCode: code } : { path, message: issue.message };
}

/**
 * The error for a list of issues: the coded class of the first issue that carries a spec code
 * (so one `catch` handles client and server alike), else a `ValidationError`. Either way
 * `issues` lists every problem, and the message starts with the coded one, said once with its
 * field: `cod: must be at most 30000 EGP (errorCode 3007)`.
 */
export function failure(subject: string, issues: readonly ValidationIssue[]): DeliveryError {
  const coded = issues.find((issue) => isKnownErrorCode(issue.errorCode));
  if (coded === undefined || !isKnownErrorCode(coded.errorCode)) return new ValidationError(issues, { subject });
  const code = coded.errorCode;
  const others = issues.filter((issue) => issue !== coded);
  // As describeIssues lists them: ten at most, then a count.
  const listed = [coded, ...others].slice(0, 10).map((issue) => `${formatPath(issue.path)}: ${issue.message}${issue === coded ? ` (errorCode ${code})` : ''}`);
  const more = issues.length > listed.length ? `; and ${issues.length - listed.length} more` : '';
  const message = `${listed.join('; ')}${more}`;
  return createCodedError(code, { source: 'client', issues, message });
}

/** @internal Runs a schema without throwing. */
export function checkWith<T>(schema: z.ZodMiniType<T>, input: unknown, subject: string): CheckResult<T> {
  let result: z.util.SafeParseResult<T>;
  try {
    result = z.safeParse(schema, input, PARSE_OPTIONS);
  } catch (cause) {
    // Only exotic input gets here (a getter that throws, a revoked Proxy): JSON never does.
    // It is still the caller's input that is wrong, so it is reported as such.
    const error = new ValidationError([{ path: [], message: 'could not be read' }], { subject, cause });
    return { ok: false, error };
  }
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: failure(subject, result.error.issues.map(toIssue)) };
}

/** The value, or the error thrown. */
export function unwrap<T>(checked: CheckResult<T>): T {
  if (checked.ok) return checked.value;
  throw checked.error;
}

/** A failed check at the root of the input, for problems found before any schema applies. */
export function rejected(subject: string, issue: ValidationIssue): CheckResult<never> {
  return { ok: false, error: failure(subject, [issue]) };
}
