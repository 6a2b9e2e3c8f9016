/**
 * The one checking step every call's input goes through before it is sent (core/operation.ts
 * runs it for single calls, the bulk reader for each order):
 *
 * 1. The input is read once into its wire form, the JSON the request will carry: a getter, a
 *    Proxy or a `toJSON` runs there and nowhere after.
 * 2. The check's plain verdict (no zod) decides for input that passes and is sent as it is: its
 *    JSON text goes out unchanged.
 * 3. Anything else gets the check's full verdict (the schemas, loaded on first need), whose
 *    answer is the value to send (normalised: phone digits in ASCII, no `undefined`) or the
 *    typed error.
 *
 * The checks themselves are the schemas' (schemas/check.ts); `validate` is resolved once per call
 * into the rules to leave out, or `false`: then the input is only read into its wire form.
 */
import { type DeliveryError, ValidationError } from '../errors/index.js';

/** What a check found: the value to send, or the error it would throw. */
export type CheckResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: DeliveryError };

/** How a call's input is checked: `false` for not at all, else the codes of the rules to leave out. */
export type Validation = false | ReadonlySet<number>;

/** What an endpoint's input must satisfy. */
export interface InputCheck<T = unknown> {
  /** The zod-free check: true when the wire form passes every rule not in `skip` and is sent as it is. Never throws. */
  readonly plain?: ((wire: unknown, skip: ReadonlySet<number>) => boolean) | undefined;
  /** The full verdict on the wire form: the value to send, or the typed error (a promise while the schemas load). */
  readonly verdict: (wire: unknown, skip: ReadonlySet<number>) => CheckResult<T> | Promise<CheckResult<T>>;
}

/** Input as it will be sent: the value checked and its JSON text (both undefined for no input). */
export interface Checked<T = unknown> {
  readonly value: T;
  readonly json: string | undefined;
}

/**
 * The checking step: `input` read once into its wire form, checked as `check` and `validation`
 * say. Synchronous unless the full verdict must wait for the schemas. Throws (or rejects with) the
 * typed error; nothing of the caller's object is read after it returns.
 */
export function checkInput<T>(check: InputCheck<T> | undefined, input: unknown, validation: Validation): Checked<T> | Promise<Checked<T>> {
  const wire = wireForm(input);
  if (check === undefined || validation === false || check.plain?.(wire?.value, validation) === true) return { value: wire?.value as T, json: wire?.json };
  const verdict = check.verdict(wire?.value, validation);
  return verdict instanceof Promise ? verdict.then(asChecked) : asChecked(verdict);
}

function asChecked<T>(result: CheckResult<T>): Checked<T> {
  if (!result.ok) throw result.error;
  return { value: result.value, json: JSON.stringify(result.value) };
}

/**
 * `check` run on the input's wire form, the JSON the SDK would send: so a validator answers for
 * the bytes `create` sends. Input JSON cannot carry is a typed error.
 */
export function onWire<T>(input: unknown, check: (wire: unknown) => CheckResult<T>): CheckResult<T> {
  let wire: unknown;
  try {
    wire = wireForm(input)?.value;
  } catch (error) {
    return { ok: false, error: error as DeliveryError };
  }
  return check(wire);
}

/** A body as it goes on the wire: the JSON text, and the value that text reads back as. */
export interface Wire {
  readonly json: string;
  /** `JSON.parse(json)`: plain objects and arrays only, so what is checked is what is sent. */
  readonly value: unknown;
}

/** A value JSON cannot carry as given: a BigInt, which it refuses, or NaN and the infinities, which it writes as `null`. */
class NotJson extends Error {
  constructor(
    readonly holder: unknown,
    readonly key: string | number,
    readonly found: string,
  ) {
    super(`expected a finite number, received ${found}`);
  }
}

function refuseNotJson(this: unknown, key: string, value: unknown): unknown {
  const found = typeof value === 'bigint' ? 'a BigInt' : typeof value === 'number' && !Number.isFinite(value) ? String(value) : undefined;
  if (found !== undefined) throw new NotJson(this, Array.isArray(this) ? Number(key) : key, found);
  return value;
}

/**
 * The input read once, as JSON: `toJSON`, getters and Proxies run here and nowhere after, so the
 * check that follows and the request see the same bytes. `undefined` for no body. Refuses, naming
 * the field, what JSON cannot carry (a BigInt, a cycle, a getter that throws) and the numbers it
 * would silently turn into `null` (`cod: NaN` must not reach the service as "no cod").
 */
export function wireForm(body: unknown): Wire | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(body);
    // NaN and the infinities come out as `null`: only a text with a null can hold one (a rare second read).
    if (json?.includes('null')) json = JSON.stringify(body, refuseNotJson);
  } catch {
    // Read again to name the field: the replacer sees a BigInt before JSON refuses it.
    json = notJson(body);
  }
  return json === undefined ? undefined : { json, value: JSON.parse(json) };
}

/** The error for a body JSON refused; its JSON when it reads fine the second time (a getter that threw once). */
function notJson(body: unknown): string | undefined {
  try {
    return JSON.stringify(body, refuseNotJson);
  } catch (cause) {
    if (cause instanceof NotJson) {
      const at = [...(pathTo(body, cause.holder) ?? []), ...(cause.key === '' ? [] : [cause.key])];
      throw new ValidationError([{ path: at, message: cause.message }], { subject: 'Invalid request body' });
    }
    // A stack overflow is the input's depth, not a fault to keep: thousands of levels of nesting.
    if (cause instanceof RangeError)
      throw new ValidationError([{ path: [], message: 'is nested too deeply to be sent as JSON' }], { subject: 'Invalid request body' });
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ValidationError([{ path: [], message: `cannot be sent as JSON (${reason.slice(0, 200)})` }], { subject: 'Invalid request body', cause });
  }
}

/** Where `target` sits in `root`, for the message of a refused number; only runs on that error. */
function pathTo(root: unknown, target: unknown, seen = new Set<unknown>()): Array<string | number> | undefined {
  if (root === target) return [];
  if (typeof root !== 'object' || root === null || seen.has(root)) return undefined;
  seen.add(root);
  try {
    for (const [key, value] of Object.entries(root)) {
      const found = pathTo(value, target, seen);
      if (found !== undefined) return [Array.isArray(root) ? Number(key) : key, ...found];
    }
  } catch {
    // a getter that throws now: the field stays unnamed
  }
  return undefined;
}
