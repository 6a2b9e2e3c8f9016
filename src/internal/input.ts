/**
 * The one checking step every call's input goes through before it is sent (functions/endpoint.ts
 * runs it for single calls, the bulk reader for each order):
 *
 * 1. The input is read once into a snapshot the SDK owns ({@link snapshotOf}): plain objects,
 *    arrays, strings, finite numbers, booleans and null, as JSON would read it. A getter, a Proxy
 *    or a `toJSON` runs there and nowhere after.
 * 2. The check's plain verdict (no zod) decides for input that passes: the snapshot is sent.
 * 3. Anything else gets the check's full verdict (the schemas, loaded on first need), whose
 *    answer is the value to send (normalised: phone digits in ASCII, no `undefined`) or the
 *    typed error.
 *
 * What is sent is the value checked, written by {@link writeJson}. The checks themselves are the
 * schemas' (schemas/check.ts); `validate` is resolved once per call into the rules to leave out,
 * or `false`: then the input is only read into its snapshot.
 */
import { ConfigurationError, DeliveryError, ValidationError } from '../errors/index.js';

/** What a check found: the value to send, or the error it would throw. */
export type CheckResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: DeliveryError };

/** How a call's input is checked: `false` for not at all, else the codes of the rules to leave out. */
export type Validation = false | ReadonlySet<number>;

/** What an endpoint's input must satisfy. */
export interface InputCheck<T = unknown> {
  /** The zod-free check: true when the snapshot passes every rule not in `skip` and is sent as it is. Never throws. */
  readonly plain?: ((wire: unknown, skip: ReadonlySet<number>) => boolean) | undefined;
  /** The full verdict on the snapshot: the value to send, or the typed error (a promise while the schemas load). */
  readonly verdict: (wire: unknown, skip: ReadonlySet<number>) => CheckResult<T> | Promise<CheckResult<T>>;
}

/** Input as it will be sent: the value checked, which no one but the SDK holds (undefined for no input). */
export interface Checked<T = unknown> {
  readonly value: T;
}

/**
 * The checking step: `input` read once into its snapshot, checked as `check` and `validation`
 * say. Synchronous unless the full verdict must wait for the schemas. Throws (or rejects with) the
 * typed error; nothing of the caller's object is read after it returns.
 */
export function checkInput<T>(check: InputCheck<T> | undefined, input: unknown, validation: Validation): Checked<T> | Promise<Checked<T>> {
  const value = snapshotOf(input);
  if (check === undefined || validation === false || check.plain?.(value, validation) === true) return { value: value as T };
  const verdict = check.verdict(value, validation);
  return verdict instanceof Promise ? verdict.then(asChecked) : asChecked(verdict);
}

function asChecked<T>(result: CheckResult<T>): Checked<T> {
  if (!result.ok) throw result.error;
  return { value: result.value };
}

/**
 * `check` run on the input's snapshot, what the SDK would send: so a validator answers for the
 * bytes `create` sends. Input JSON cannot carry is a typed error.
 */
export function onWire<T>(input: unknown, check: (wire: unknown) => CheckResult<T>): CheckResult<T> {
  let wire: unknown;
  try {
    wire = snapshotOf(input);
  } catch (error) {
    return { ok: false, error: error as DeliveryError };
  }
  return check(wire);
}

/**
 * The JSON text of a value the SDK owns (a snapshot, or what the schemas returned for one):
 * `undefined` for no body. Refuses to write when a library set `toJSON` on `Object.prototype` or
 * `Array.prototype`: JSON would then send what that function returns, not what was checked.
 */
export function writeJson(value: unknown): string | undefined {
  // Array.prototype's own or Object.prototype's, whose it inherits.
  if ('toJSON' in Array.prototype)
    throw new ConfigurationError('Object.prototype.toJSON or Array.prototype.toJSON is set: JSON would send what it returns, not what the SDK checked.');
  return JSON.stringify(value);
}

/** The deepest nesting a snapshot takes (JSON itself overflows the stack some thousands of levels down, varying by runtime). */
export const MAX_DEPTH = 500;

/** Why a value cannot be read into a snapshot; `path` is filled in as the reading unwinds. */
class Unreadable {
  readonly path: Array<string | number> = [];
  declare readonly message: string;
  declare readonly cause: unknown;
  constructor(message: string, cause?: unknown) {
    this.message = message;
    this.cause = cause;
  }
}

const TOO_DEEP = `is nested more than ${MAX_DEPTH} levels deep: too deep to be sent as JSON`;

/**
 * The input read once into a snapshot of its own, the value `JSON.parse(JSON.stringify(input))`
 * gives (`toJSON` called, Number, String and Boolean objects unwrapped, `undefined`, functions
 * and symbols left out of objects and written as `null` in arrays, `-0` as `0`) without the text
 * between: each object's own enumerable keys read once, each value once, objects of the usual
 * shape copied field by field. `undefined` for no body. Refuses, with a `ValidationError` naming
 * the field, what JSON cannot carry (a BigInt, a cycle, a getter that throws, nesting deeper than
 * {@link MAX_DEPTH}) and the numbers it would silently turn into `null` (`cod: NaN` must not reach
 * the service as "no cod").
 */
export function snapshotOf(input: unknown): unknown {
  try {
    return read(input, '', 0, []);
  } catch (error) {
    const { path, message, cause } = unreadable(error);
    // Too deep: the first field says where; five hundred keys would say no more.
    throw new ValidationError([{ path: message === TOO_DEEP ? path.slice(0, 1) : path, message }], { subject: 'Invalid request body', cause });
  }
}

const unreadable = (error: unknown): Unreadable =>
  error instanceof Unreadable
    ? error
    : new Unreadable(`cannot be sent as JSON (${String(error instanceof Error ? error.message : error).slice(0, 200)})`, error);

/** `error` of the value at `key`, its path now starting there. */
function at(error: unknown, key: string | number | undefined): Unreadable {
  const found = unreadable(error);
  if (key !== undefined) found.path.unshift(key);
  return found;
}

/** One value as JSON writes it (its `toJSON` called): the snapshot, or `undefined` where JSON writes nothing. */
function read(value: unknown, key: string | number, depth: number, above: object[]): unknown {
  if ((typeof value === 'object' && value !== null) || typeof value === 'function' || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, String(key));
  }
  return readValue(value, depth, above);
}

/** {@link read} once `toJSON` has run. */
function readValue(value: unknown, depth: number, above: object[]): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new Unreadable(`expected a finite number, received ${value}`);
      return value === 0 ? 0 : value;
    case 'bigint':
      throw new Unreadable('expected a finite number, received a BigInt');
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) return readArray(value, depth, above);
      const primitive = primitiveOf(value);
      return primitive === value ? readObject(value as Record<string, unknown>, depth, above) : readValue(primitive, depth, above);
    }
    default:
      return undefined;
  }
}

/** Leaves a note that `value` is being read: a `ValidationError` for a cycle or nesting too deep. */
function enter(value: object, depth: number, above: object[]): void {
  if (depth >= MAX_DEPTH) throw new Unreadable(TOO_DEEP);
  if (above.includes(value)) throw new Unreadable('contains itself (a cycle): JSON cannot carry it');
  above.push(value);
}

function readObject(source: Record<string, unknown>, depth: number, above: object[]): Record<string, unknown> {
  enter(source, depth, above);
  const copy: Record<string, unknown> = {};
  let key: string | undefined;
  try {
    // Its own enumerable keys, in JSON's order, as `Object.keys` gives them without an array of them each object.
    for (key in source) {
      if (!Object.hasOwn(source, key)) continue;
      const value = read(source[key], key, depth + 1, above);
      if (value === undefined) continue;
      // JSON.parse makes `__proto__` an own key; an assignment would set the prototype instead.
      if (key === '__proto__') Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
      else copy[key] = value;
    }
  } catch (error) {
    throw at(error, key);
  }
  above.pop();
  return copy;
}

function readArray(source: readonly unknown[], depth: number, above: object[]): unknown[] {
  enter(source, depth, above);
  // A Proxy's length may be anything: JSON reads it as a whole number (ToLength).
  const length = Math.trunc(+source.length);
  // Made at its length: grown by pushes, a copy of 1 had room for 16. Not for a length so large it may be a lie.
  const copy: unknown[] = length > 0 && length <= 4096 ? new Array(length) : [];
  let index = 0;
  try {
    for (; index < length; index++) {
      const value = read(source[index], index, depth + 1, above);
      copy[index] = value === undefined ? null : value;
    }
  } catch (error) {
    throw at(error, index);
  }
  above.pop();
  return copy;
}

/**
 * Number, String, Boolean and BigInt objects: the method that throws for any object but one (it
 * reads the slot that makes one), and how JSON reads it (else the slot). JSON reads a Number object
 * by ToNumber and a String object by ToString: its own valueOf or toString runs.
 */
const WRAPPERS: ReadonlyArray<[slot: (this: object) => unknown, read?: (value: object) => unknown]> = [
  [Number.prototype.valueOf, (value) => +value],
  [String.prototype.valueOf, String],
  [Boolean.prototype.valueOf],
  [BigInt.prototype.valueOf],
];

/**
 * A Number, String, Boolean or BigInt object as JSON reads it (its number, its text, its boolean,
 * its BigInt); any other object as it is. An object whose prototype is Object's or none is looked
 * at no further (a wrapper whose prototype was set to one of those is read as an object: asking
 * would read a Proxy's `Symbol.toStringTag`, or cost four throws an object).
 */
function primitiveOf(value: object): unknown {
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) return value;
  for (const [slot, read] of WRAPPERS) {
    let primitive: unknown;
    try {
      primitive = slot.call(value);
    } catch {
      continue;
    }
    return read === undefined ? primitive : read(value);
  }
  return value;
}

/** Input that throws while read (a revoked Proxy, a getter that throws) is still the caller's input: a typed error, not a TypeError. */
export function asTypedError(error: unknown): DeliveryError {
  return error instanceof DeliveryError ? error : new ValidationError([{ path: [], message: 'could not be read' }], { cause: error });
}
