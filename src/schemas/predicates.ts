/**
 * The formats the schemas check without zod (URLs, e-mail addresses, phones) and the COD limit.
 * The guards every module shares (`isRecord`, `shown`, ...) are internal/guards.ts's. None uses a
 * regular expression that can backtrack: validation runs on every request, on input we do not
 * control.
 */

import { isFilled, isRecord } from '../internal/guards.js';

/** The most `cod` may be, collected or refunded: 30000 EGP (3007, 3008). */
export const COD_LIMIT = 30_000;

// Whitespace and control characters anywhere: `new URL` silently drops tabs and newlines
// and trims the ends, so it would accept a URL the service may read differently.
const URL_UNSAFE_CHARACTER = /[\u0000-\u0020\u007f]/;

const HTTP_SCHEME = /^https?:\/\//i;

/**
 * The usual URL, which the URL parser reads: `http(s)://` (further slashes skipped, as the parser
 * does), any `user@` (up to the last `@` before the path), a host of letters, digits, `-` and `_`
 * whose last label starts with no digit (else it may be an IPv4 address) and none with `xn--`
 * (punycode, for the parser to check), a port below 10000, then anything without spaces or
 * control characters. One forward pass: each part stops at a character the next must start
 * with, and the user part, lazy, looks for its `@` as it goes (greedy, it read the host twice
 * more when there is none: a third of the time of this check, which every image URL of every
 * order of a bulk upload takes). What it does not match goes to the parser.
 */
const USUAL_URL =
  /^https?:\/\/[/\\]*(?:[^/\\?#\u0000-\u0020\u007f]*?@)?(?:(?!xn--)[\w-]+\.)*(?!xn--)[a-z_-][\w-]*\.?(?::\d{0,4})?(?:[/\\?#][^\u0000-\u0020\u007f]*)?$/i;

/**
 * Whether the URL parser reads `value`; for http and https it refuses an empty host, so "it parses"
 * means "it has a host". `new URL`, not `URL.canParse`: only the unusual URL gets here, and Node
 * 20's `URL.canParse`, once V8 has optimised its caller, reads a string of Latin-1 characters as
 * UTF-8 and refuses `https://bücher.de/`.
 */
function parses(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * An absolute http(s) URL with a host, written without spaces or control characters: the usual
 * one in one pass ({@link USUAL_URL}), any other as the URL parser reads it. test/schemas/url-check.test.ts
 * fuzzes it against the parser.
 */
export function isHttpUrl(value: string): boolean {
  return USUAL_URL.test(value) || (HTTP_SCHEME.test(value) && !URL_UNSAFE_CHARACTER.test(value) && parses(value));
}

/** A registration e-mail: one `@`, something before it, a dotted domain after it, no spaces. */
export function isEmailAddress(value: string): boolean {
  const at = value.indexOf('@');
  if (at < 1 || at !== value.lastIndexOf('@') || URL_UNSAFE_CHARACTER.test(value)) return false;
  const domain = value.slice(at + 1);
  const dot = domain.indexOf('.');
  return dot > 0 && !domain.endsWith('.');
}

// Arabic-Indic (U+0660-0669) and Persian (U+06F0-06F9) digits, as Egyptian phone keyboards type them.
const EASTERN_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]/g;

/** `'٠١٠١٢٣٤٥٦٧٨'` as `'01012345678'`: Arabic-Indic and Persian digits as ASCII ones, the rest as it is. */
export function asciiDigits(value: string): string {
  return value.replace(EASTERN_DIGITS, (digit) => String(digit.charCodeAt(0) & 0xf));
}

/**
 * The digits of a phone as people write it (an optional leading `+`, then digits and spaces,
 * dashes, dots or brackets), or -1 for any other character. Arabic-Indic and Persian digits
 * count when `eastern` says so. One pass over the char codes: it runs on every order sent.
 */
function phoneDigits(value: string, eastern: boolean): number {
  const text = value.trim();
  let digits = 0;
  for (let i = text.startsWith('+') ? 1 : 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 48 && code <= 57) || (eastern && ((code >= 0x660 && code <= 0x669) || (code >= 0x6f0 && code <= 0x6f9)))) digits++;
    // space - . ( )
    else if (code !== 32 && code !== 45 && code !== 46 && code !== 40 && code !== 41) return -1;
  }
  return digits;
}

const isPhoneLength = (digits: number): boolean => digits >= 8 && digits <= 15;

/**
 * A phone number as people write it: 8 to 15 digits, an optional leading `+`, and spaces,
 * dashes, dots or brackets between them (`01012345678`, `+20 10 1234 5678`, `+966-50-123-4567`).
 * Arabic-Indic and Persian digits count as digits. Letters, or too few or too many digits, make it no phone number.
 */
export const isPhoneNumber = (value: string): boolean => isPhoneLength(phoneDigits(value, true));

/** What a value that is no {@link isPhoneNumber} breaks, in every message that says so. */
export const PHONE_RULE = 'must be a phone number: 8 to 15 digits, optionally a leading + and spaces or dashes between them';

/** A phone as people write it, in ASCII digits, separators dropped: `+201012345678`, `0020…`, `0101…`. */
function compactPhone(value: string): string {
  const typed = asciiDigits(value.trim());
  const digits = typed.replace(/[^0-9]/g, '');
  return typed.startsWith('+') ? `+${digits}` : digits;
}

// An Egyptian number after its country code 20: a mobile (1 then 9 digits) or a landline.
const EGYPT_INTERNATIONAL = /^(?:\+|00)20(\d{7,13})$/;
const EGYPT_MOBILE_WITHOUT_PLUS = /^20(1\d{9})$/;
const EGYPT_MOBILE_WITHOUT_ZERO = /^1[0125]\d{8}$/;

/**
 * A phone in the one form the SDK sends for orders, pickups and pickup locations, and searches by:
 * ASCII digits only, no separators. An Egyptian number in its national form, `0` then the number,
 * as the service's own SDKs and the integrations send it (`+20 10 1234 5678`, `0020-10-1234-5678`,
 * `201012345678`, `1012345678` and `٠١٠١٢٣٤٥٦٧٨` are all `01012345678`; `+20 2 2345 6789` is
 * `0223456789`); any other number written with an international prefix (`+`, `00`) as its
 * country code and number (`+966 50 123 4567` is `966501234567`); any other phone as its digits.
 * A value that is no phone ({@link isPhoneNumber}) is returned as it is. docs/assumptions.md says why.
 */
export function canonicalPhone(value: string): string {
  if (!isPhoneNumber(value)) return value;
  // Again until nothing changes (`+0020…` is `0020…`, then `20…`, then `0…`): the form is a fixed point.
  let form = oneStep(value);
  for (let steps = 0, next = oneStep(form); next !== form && steps < 4; steps++, next = oneStep(form)) form = next;
  return form;
}

/** One step of {@link canonicalPhone}, on a phone. */
function oneStep(value: string): string {
  const compact = compactPhone(value);
  const digits = compact.replace('+', '');
  const egyptian = EGYPT_INTERNATIONAL.exec(compact)?.[1] ?? EGYPT_MOBILE_WITHOUT_PLUS.exec(compact)?.[1];
  const national = egyptian === undefined ? undefined : `0${egyptian.replace(/^0+/, '')}`;
  if (national !== undefined && isPhoneLength(national.length)) return national;
  if (EGYPT_MOBILE_WITHOUT_ZERO.test(compact)) return `0${compact}`;
  const international = compact.startsWith('+') ? digits : compact.startsWith('00') ? digits.slice(2) : digits;
  return isPhoneLength(international.length) ? international : digits;
}

/** A phone already in {@link canonicalPhone}'s form: sent as it is, since the schemas would change nothing of it. */
export function isCanonicalPhone(value: string): boolean {
  const length = value.length;
  if (length < 8 || length > 15) return false;
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  // A national number (`0` then not `0`): no step of the form changes it. The common case, on every order sent.
  if (value.charCodeAt(0) === 48 && value.charCodeAt(1) !== 48) return true;
  return canonicalPhone(value) === value;
}

/**
 * Every spelling of a phone to search by: its {@link canonicalPhone} form (how the SDK sends it,
 * so every order the SDK created for it), as typed (trimmed), and for an Egyptian number its
 * international forms (`+201011112222`, `201011112222`), for orders created elsewhere. Orders
 * created elsewhere with other separators (`010 1111 2222`) are not found: docs/orders.md. The
 * one home for "the same customer's phone", for searches by phone.
 */
export function phoneSpellings(phone: string): string[] {
  const typed = phone.trim();
  const canonical = canonicalPhone(typed);
  const compact = compactPhone(typed);
  const spellings = [canonical, typed];
  if (/^01\d{9}$/.test(canonical) || EGYPT_INTERNATIONAL.test(compact)) spellings.push(`+20${canonical.slice(1)}`, `20${canonical.slice(1)}`);
  else if (/^(?:\+|00)/.test(compact) && isPhoneNumber(typed)) spellings.push(`+${canonical}`);
  return [...new Set(spellings.filter((spelling) => spelling !== ''))];
}

/** The receiver phone of an element, in the form the SDK sends it ({@link canonicalPhone}; trimmed when it is no phone), or `undefined` without one. */
export function receiverPhoneOf(order: unknown): string | undefined {
  const receiver = isRecord(order) ? order['receiver'] : undefined;
  const phone = isRecord(receiver) ? receiver['phone'] : undefined;
  return isFilled(phone) ? canonicalPhone(phone.trim()) : undefined;
}
