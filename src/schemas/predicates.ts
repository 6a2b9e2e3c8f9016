/**
 * Plain checks shared by the schemas. None uses a regular expression that can backtrack:
 * validation runs on every request, on input we do not control.
 */

// Shared with the transport, which may not import the schemas: their home is core/guards.ts.
import { isFilled, isRecord } from '../core/guards.js';

export { isFilled, isHeaderName, isRecord, isSafeHeaderValue, shown } from '../core/guards.js';

/** The most `cod` may be, collected or refunded: 30000 EGP (3007, 3008). */
export const COD_LIMIT = 30_000;

// Whitespace and control characters anywhere: `new URL` silently drops tabs and newlines
// and trims the ends, so it would accept a URL the service may read differently.
const URL_UNSAFE_CHARACTER = /[\u0000-\u0020\u007f]/;

const HTTP_SCHEME = /^https?:\/\//i;

/**
 * The usual URL, which the URL parser reads: `http(s)://` (further slashes skipped, as the parser
 * does), any `user@`, a host of letters, digits, `-` and `_` whose last label starts with no digit
 * (else it may be an IPv4 address) and none with `xn--` (punycode, for the parser to check), a
 * port below 10000, then anything without spaces or control characters. One forward pass: each
 * part stops at a character the next must start with. What it does not match goes to the parser.
 */
const USUAL_URL =
  /^https?:\/\/[/\\]*(?:[^/\\?#@\u0000-\u0020\u007f]*@)*(?:(?!xn--)[\w-]+\.)*(?!xn--)[a-z_-][\w-]*\.?(?::\d{0,4})?(?:[/\\?#][^\u0000-\u0020\u007f]*)?$/i;

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

/** A phone number written in ASCII digits only: sent as it is, since the schemas would change no digit of it. */
export const isAsciiPhoneNumber = (value: string): boolean => isPhoneLength(phoneDigits(value, false));

/**
 * Every spelling the service may have stored a phone in: as typed (trimmed), and for an Egyptian
 * number its national (`01011112222`) and international (`+201011112222`) forms, ASCII digits
 * without separators. The one home for "the same customer's phone", for searches by phone.
 */
export function phoneSpellings(phone: string): string[] {
  const typed = phone.trim();
  const digits = asciiDigits(typed).replace(/[\s\-.()]/g, '');
  const national = /^(?:\+20|0020|20)(1\d{9})$/.exec(digits)?.[1] ?? /^0(1\d{9})$/.exec(digits)?.[1];
  const spellings = national === undefined ? [typed, digits] : [typed, `0${national}`, `+20${national}`];
  return [...new Set(spellings.filter((spelling) => spelling !== ''))];
}

/** The receiver phone of an element, trimmed, or `undefined` without one. */
export function receiverPhoneOf(order: unknown): string | undefined {
  const receiver = isRecord(order) ? order['receiver'] : undefined;
  const phone = isRecord(receiver) ? receiver['phone'] : undefined;
  return isFilled(phone) ? phone.trim() : undefined;
}
