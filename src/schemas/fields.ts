/**
 * Small schema builders shared by every request body. They are functions, called only inside
 * `lazy()` builders, so nothing here runs at import time.
 */
import * as z from 'zod/mini';
import type { ErrorCode } from '../errors/codes.js';
import { isFilled, isRecord } from '../internal/guards.js';
import { asciiDigits, canonicalPhone, isHttpUrl, isPhoneNumber, PHONE_RULE } from './predicates.js';

/**
 * What JSON Schema can say of a rule (`{ maximum: 30000 }`), never stricter than the rule itself:
 * the MCP tools' input schemas carry it (scripts/operations/rules.ts reads it off the check).
 * A rule JSON Schema cannot state (the escrow's bound by `cod`) goes without.
 * @internal
 */
export type RuleSchema = Readonly<Record<string, unknown>>;

/** `check`, stating `schema` when given (on its definition, where z.toJSONSchema's override finds it). @internal */
export function stating<C extends z.core.$ZodCheck<never>>(check: C, schema: RuleSchema | undefined): C {
  if (schema !== undefined) (check._zod.def as { jsonSchema?: RuleSchema }).jsonSchema = schema;
  return check;
}

/** What {@link isFilled} asks of a string, in JSON Schema: a character other than whitespace. @internal */
export const FILLED: RuleSchema = { minLength: 1, pattern: '\\S' };

/** {@link isPhoneNumber} in JSON Schema: 8 to 15 digits (ASCII, Arabic-Indic or Persian), an optional leading `+`, spaces, dashes, dots or brackets between. */
const PHONE: RuleSchema = { pattern: '^\\s*\\+?[ .()-]*(?:[0-9\\u0660-\\u0669\\u06f0-\\u06f9][ .()-]*){8,15}\\s*$' };

/** {@link isHttpUrl} in JSON Schema (its scheme: a format such as `uri` would refuse hosts the URL parser reads). */
const HTTP_URL: RuleSchema = { pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' };

/** Reports one issue from a cross-field rule; `path` is relative to the object the rule is on. */
type Report = (path: ReadonlyArray<string | number>, message: string, errorCode?: ErrorCode) => void;

/**
 * A rule spec'd with an errorCode: the code travels on the zod issue and picks the error class.
 * The caller can switch it off by its code (`validate: { skip: [code] }`): `checkWith` drops its
 * issues, which never stop other rules from running (they `continue`).
 * @internal
 */
export function codedRule<T>(holds: (value: T) => boolean, message: string, errorCode: ErrorCode, schema?: RuleSchema): z.core.$ZodCheck<T> {
  return stating(z.refine<T>(holds, { error: message, params: { errorCode } }), schema);
}

/** @internal A rule without a code (a `ValidationError`). */
export function rule<T>(holds: (value: T) => boolean, message: string, schema?: RuleSchema): z.core.$ZodCheck<T> {
  return stating(z.refine<T>(holds, { error: message }), schema);
}

/**
 * A rule over several fields of one object. It runs even when some fields already failed, so a
 * `ValidationError` lists every problem, not only those of the first layer; the fields it reads
 * may therefore still have any type, and it must check them.
 * @internal
 */
export function crossField(check: (value: Record<string, unknown>, report: Report) => void, schema?: RuleSchema): z.core.$ZodCheck<object> {
  const rule = z.check<object>(
    (payload) => {
      check(payload.value as Record<string, unknown>, (path, message, errorCode) => {
        payload.issues.push({
          code: 'custom',
          message,
          path: [...path],
          input: payload.value,
          continue: true,
          ...(errorCode === undefined ? {} : { params: { errorCode } }),
        });
      });
    },
    { when: (payload) => isRecord(payload.value) },
  );
  return stating(rule, schema);
}

// zod keeps an optional key that was given as `undefined`; the body sent must not carry it.
export function dropUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value)) {
    if ((value as Record<string, unknown>)[key] === undefined) delete (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * An object whose fields are checked, and whose other keys travel on unchanged: the service
 * may take fields the spec does not show (the FlexShip switch, for one), and the SDK must not
 * drop them. The TypeScript type still lists only the known fields, so a typo is a compile
 * error; JavaScript callers get their extra keys sent as they wrote them.
 * @internal
 */
export function object<S extends z.core.$ZodLooseShape>(shape: S, ...rules: Array<z.core.$ZodCheck<object>>): z.ZodMiniObject<S, z.core.$strip> {
  const schema = z.looseObject(shape).check(...rules, z.overwrite(dropUndefined));
  return schema as unknown as z.ZodMiniObject<S, z.core.$strip>;
}

/** @internal Like {@link object}, and the type says so too (`[key: string]: unknown`), for objects whose inner fields the spec leaves open. */
export function openObject<S extends z.core.$ZodLooseShape>(shape: S, ...rules: Array<z.core.$ZodCheck<object>>): z.ZodMiniObject<S, z.core.$loose> {
  return z.looseObject(shape).check(...rules, z.overwrite(dropUndefined));
}

/**
 * An optional field: `undefined` and `null` both mean "not given" (PHP and Python clients send
 * `null` for every empty field). `null` is sent on as given, as those clients send it.
 * @internal
 */
export function optional<T extends z.core.SomeType>(schema: T): z.ZodMiniOptional<z.ZodMiniNullable<T>> {
  return z.optional(z.nullable(schema));
}

/**
 * The fields of a change to something made with `shape` (a pickup location, a pickup): each may be
 * left out, and one the create requires may not be `null`, which the service would store over
 * the value it has (a location's `districtId`, its `firstLine`); the others may, as ever.
 * @internal
 */
export function changeShape(shape: Readonly<Record<string, z.core.SomeType>>): Record<string, z.core.SomeType> {
  return Object.fromEntries(Object.entries(shape).map(([name, field]) => [name, isOptional(field) ? field : z.optional(field)]));
}

const isOptional = (field: z.core.SomeType): boolean => (field as z.core.$ZodType)._zod.def.type === 'optional';

/** @internal A string with something in it besides whitespace. */
export const filledText = (): z.ZodMiniString => z.string().check(rule<string>(isFilled, 'must not be empty', FILLED));

/** @internal A filled string that may be a credential (a password, a one-time code): no message shows the value. */
export const secretText = (): z.ZodMiniString =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'required' : 'expected a string (not shown: it may be a credential)') })
    .check(rule<string>(isFilled, 'must not be empty', FILLED));

/**
 * @internal A phone number field: Arabic-Indic and Persian digits (`٠١٠...`) are sent as ASCII
 * ones; `holds` is the rule it must then meet. The account's own phones (registration, the
 * one-time code) are sent so, as typed otherwise.
 */
export const phoneText = (holds: (value: string) => boolean, message: string, schema?: RuleSchema): z.ZodMiniString =>
  z.string().check(z.overwrite(asciiDigits), rule(holds, message, schema));

/**
 * @internal A customer's or a contact's phone (an order's `receiver`, a pickup's or a location's
 * `contactPerson`): a phone number ({@link isPhoneNumber}), sent in its one canonical form
 * ({@link canonicalPhone}: digits only, an Egyptian number as `01…`), so that the service stores
 * one spelling and a search by phone finds it.
 */
export const contactPhone = (): z.ZodMiniString =>
  z.string().check(z.overwrite(asciiDigits), rule(isPhoneNumber, PHONE_RULE, PHONE), z.overwrite(canonicalPhone));

/** @internal An absolute http(s) URL; with a code, its failure carries it (2151 for image URLs). */
export function httpUrl(message: string, errorCode?: ErrorCode): z.ZodMiniString {
  return z.string().check(errorCode === undefined ? rule(isHttpUrl, message, HTTP_URL) : codedRule(isHttpUrl, message, errorCode, HTTP_URL));
}
