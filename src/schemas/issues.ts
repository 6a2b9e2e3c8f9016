import type * as z from 'zod/mini';
import { type DeliveryError, formatPath, issueSummary, ValidationError, type ValidationIssue } from '../errors/base.js';
import { createCodedError } from '../errors/coded.js';
import { isKnownErrorCode } from '../errors/codes.js';
import { isRecord, shown } from '../internal/guards.js';
import type { CheckResult } from '../internal/input.js';
import { NONE } from '../internal/skip-rules.js';

const EXPECTED: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a finite number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
};

// zod/mini ships no English messages (they would cost bundle size); these name the problem
// the way the spec does, and the issue path names the field.
function messageOf(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'required';
      return `expected ${EXPECTED[issue.expected] ?? issue.expected}, received ${shown(issue.input)}`;
    case 'too_small':
      return issue.origin === 'array' ? `needs at least ${issue.minimum} item(s)` : `must be at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'array' ? `takes at most ${issue.maximum} item(s)` : `must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `expected ${issue.values.map(shown).join(' or ')}, received ${shown(issue.input)}`;
    case 'invalid_union':
      // The schemas' one union: buildingNumber, floor and apartment.
      return `expected a string or a number, received ${shown(issue.input)}`;
    case 'invalid_key':
      return issue.issues[0]?.message ?? 'is not a valid key';
    default:
      return 'is invalid';
  }
}

/**
 * The most issues an error lists; the rest are only counted (`unlistedIssues`). A list with a
 * million bad entries must not take seconds, and megabytes, to report.
 */
export const MAX_LISTED_ISSUES = 100;

/**
 * An issue standing for `count` problems a rule found but did not list, so that validation time
 * stays bounded; {@link checkWith} adds them to `unlistedIssues`.
 * @internal
 */
export function unlistedIssue(count: number, input: unknown): z.core.$ZodRawIssue {
  return { code: 'custom', message: `and ${count} more`, path: [], input, continue: true, params: { unlisted: count } };
}

const unlistedCount = (issue: z.core.$ZodIssue): number | undefined => {
  const count: unknown = issue.code === 'custom' ? issue.params?.['unlisted'] : undefined;
  return typeof count === 'number' ? count : undefined;
};

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
function errorForIssues(subject: string, issues: readonly ValidationIssue[], unlistedIssues = 0): DeliveryError {
  const codedIssue = issues.find((issue) => isKnownErrorCode(issue.errorCode));
  if (codedIssue === undefined || !isKnownErrorCode(codedIssue.errorCode)) return new ValidationError(issues, { subject, unlistedIssues });
  const code = codedIssue.errorCode;
  const others = issues.filter((issue) => issue !== codedIssue);
  const message = issueSummary(
    [codedIssue, ...others],
    unlistedIssues,
    (issue) => `${formatPath(issue.path)}: ${issue.message}${issue === codedIssue ? ` (errorCode ${code})` : ''}`,
  );
  return createCodedError(code, { source: 'client', issues, unlistedIssues, message });
}

/**
 * The error for what a parse found: {@link MAX_LISTED_ISSUES} issues listed in their order, the
 * rest counted. An issue with a spec code is listed even when it comes late, in place of the last
 * uncoded one, since it picks the error's class.
 */
function errorForZodIssues(subject: string, found: readonly z.core.$ZodIssue[]): DeliveryError {
  const listed: ValidationIssue[] = [];
  let coded = 0;
  let unlisted = 0;
  for (const issue of found) {
    const count = unlistedCount(issue);
    if (count !== undefined) {
      unlisted += count;
      continue;
    }
    const entry = toIssue(issue);
    const isCoded = isKnownErrorCode(entry.errorCode);
    if (isCoded ? coded < MAX_LISTED_ISSUES : listed.length - coded < MAX_LISTED_ISSUES) {
      listed.push(entry);
      if (isCoded) coded++;
    } else unlisted++;
  }
  for (let at = listed.length - 1; listed.length > MAX_LISTED_ISSUES && at >= 0; at--) {
    if (isKnownErrorCode(listed[at]?.errorCode)) continue;
    listed.splice(at, 1);
    unlisted++;
  }
  return errorForIssues(subject, listed, unlisted);
}

/** Whether `issue` is of a rule `skip` switches off. */
const isSkipped = (issue: z.core.$ZodRawIssue, skip: ReadonlySet<number>): boolean => {
  const code: unknown = issue.code === 'custom' ? issue.params?.['errorCode'] : undefined;
  return typeof code === 'number' && skip.has(code);
};

/**
 * @internal Runs a schema without throwing; the issues of the rules `skip` names are dropped (a
 * coded rule's issue never stops another rule, so what remains is what a parse without that rule
 * finds). Whatever the input is (a getter that throws, a revoked Proxy), the result is a typed
 * error, never a throw.
 */
export function checkWith<T>(schema: z.ZodMiniType<T>, input: unknown, subject: string, skip: ReadonlySet<number> = NONE): CheckResult<T> {
  const context = { async: false, error: messageOf };
  let payload: z.core.ParsePayload;
  try {
    payload = schema._zod.run({ value: input, issues: [] }, context) as z.core.ParsePayload;
  } catch (cause) {
    return { ok: false, error: unreadable(subject, cause) };
  }
  const found = skip.size === 0 ? payload.issues : payload.issues.filter((issue) => !isSkipped(issue, skip));
  if (found.length === 0) return { ok: true, value: inOrderOf(payload.value, input) as T };
  return { ok: false, error: errorForZodIssues(subject, found.map(finalized)) };
}

const hasOwn = (value: object, key: string): boolean => Object.hasOwn(value, key);

/**
 * `output` with its keys in the order `input` has them, nested: the schemas build each object in
 * their shape's order, while the JSON the plain check sends keeps the caller's. So a validator's
 * answer is the same bytes `create` sends, whichever of the two decided.
 */
function inOrderOf(output: unknown, input: unknown): unknown {
  if (Array.isArray(output)) return Array.isArray(input) ? output.map((item, index) => inOrderOf(item, input[index])) : output;
  if (!isRecord(output) || !isRecord(input)) return output;
  const ordered: Record<string, unknown> = {};
  // Defined, not assigned: a `__proto__` key of an unknown field stays an own key, as the schemas keep it.
  const put = (key: string, value: unknown): void => void Object.defineProperty(ordered, key, { value, enumerable: true, writable: true, configurable: true });
  for (const key of Object.keys(input)) if (hasOwn(output, key)) put(key, inOrderOf(output[key], input[key]));
  for (const key of Object.keys(output)) if (!hasOwn(ordered, key)) put(key, output[key]);
  return ordered;
}

/**
 * An issue with its message, as zod's own finalizing gives it: the message a rule was written
 * with, else the one of {@link messageOf}. Not zod's `util.finalizeIssue`, which would bring all
 * of zod's util module (13 KB) into every browser bundle.
 */
function finalized(issue: z.core.$ZodRawIssue): z.core.$ZodIssue {
  const own: unknown = issue.message ?? (issue.inst?._zod.def as { error?: (issue: unknown) => unknown } | undefined)?.error?.(issue);
  const message = typeof own === 'string' ? own : isMessage(own) ? own.message : messageOf(issue);
  return { ...issue, path: issue.path ?? [], message } as z.core.$ZodIssue;
}

const isMessage = (value: unknown): value is { message: string } =>
  typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';

/**
 * The error for input that threw while being read. Only exotic input gets here (a getter that
 * throws, a revoked Proxy): JSON never does. It is still the caller's input that is wrong.
 */
export function unreadable(subject: string, cause: unknown): ValidationError {
  return new ValidationError([{ path: [], message: 'could not be read' }], { subject, cause });
}

/** The value, or the error thrown. */
export function unwrap<T>(checked: CheckResult<T>): T {
  if (checked.ok) return checked.value;
  throw checked.error;
}

/** A failed check at the root of the input, for problems found before any schema applies. */
export function rejected(subject: string, issue: ValidationIssue): CheckResult<never> {
  return { ok: false, error: errorForIssues(subject, [issue]) };
}
