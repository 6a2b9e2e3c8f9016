/**
 * Keeping secrets out of everything the SDK shows: logs, hook payloads, and whatever it builds
 * out of an answer (errors, results). A secret is the API key or the value of any header the
 * caller set that is not on the allow-list below.
 */

/** What replaces a secret, and a header value not on the allow-list. */
const REDACTED = '[redacted]';

// Header values that are shown as they are; every other value is a possible credential (a key
// in `X-Access-Key`, a session cookie) and shown as REDACTED.
const SHOWN_HEADERS: ReadonlySet<string> = new Set(['accept', 'content-type', 'user-agent', 'x-request-id', 'request-id', 'x-correlation-id', 'traceparent']);

/** Whether a header's value may be shown in logs and hook payloads. */
function isShownHeader(name: string, authHeaderName: string): boolean {
  const lower = name.toLowerCase();
  return SHOWN_HEADERS.has(lower) && lower !== authHeaderName.toLowerCase();
}

/**
 * Values shorter than this are not treated as secrets: no real key is that short, and replacing
 * every `abc` of an answer would garble it.
 */
const MIN_SECRET_LENGTH = 6;

/** The secrets of `headers` (every value not on the allow-list) and `known`, longest first so `Bearer <key>` goes before `<key>`. */
export function secretsOf(headers: Readonly<Record<string, string>>, authHeaderName: string, known: readonly string[] = []): readonly string[] {
  const found = new Set(known);
  for (const [name, value] of Object.entries(headers)) {
    if (isShownHeader(name, authHeaderName)) continue;
    found.add(value);
    // `Token <key>`, `Bearer <key>`: the credential alone is a secret too, echoed without its scheme.
    const credential = /^[!#$%&'*+.^_`|~\w-]+ +(\S+)$/.exec(value)?.[1];
    if (credential !== undefined) found.add(credential);
  }
  return [...found].filter((secret) => typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** A secret as the bytes of its UTF-8 text. */
const bytesOf = (secret: string): Uint8Array => new TextEncoder().encode(secret);

/** The forms of a secret that are written whole: base64, base64url (padded or not) and hex in either case. */
function wholeForms(secret: string): string[] {
  const bytes = bytesOf(secret);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const base64 = btoa(binary);
  const base64url = base64.replace(/\+/g, '-').replace(/\//g, '_');
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return [secret, base64, base64.replace(/=+$/, ''), base64url, base64url.replace(/=+$/, ''), hex, hex.toUpperCase()];
}

const hexDigit = (digit: string): string => (/[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit);
const hexOf = (code: number, width: number): string => Array.from(code.toString(16).padStart(width, '0'), hexDigit).join('');

/**
 * One character of a secret in any of the escapes a text may carry it in: itself, %-encoded (its
 * UTF-8 bytes, hex in either case), an HTML entity (decimal or hex), or a `\u` or `\x` escape.
 * A URL encodes only some characters of a key, so each character matches in any form.
 */
function characterForms(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  const percent = Array.from(bytesOf(character), (byte) => `%${hexOf(byte, 2)}`).join('');
  const forms = [character.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'), percent, `&#0*${code};`, `&#[xX]0*${hexOf(code, 1)};`];
  if (code < 0x10000) forms.push(`\\\\u${hexOf(code, 4)}`);
  if (code < 0x100) forms.push(`\\\\x${hexOf(code, 2)}`);
  return `(?:${forms.join('|')})`;
}

/** What marks a text that may hold a secret escaped character by character. */
const ESCAPED = /%|&#|\\[ux]/;

interface SecretForms {
  /** The secrets long enough to be told from text (a shorter one would mask parts of words). */
  readonly secrets: readonly string[];
  /** Each secret and its whole encodings, longest first. */
  readonly literals: readonly string[];
  /**
   * Each secret character by character in any escape: built by the first text with an escape in
   * it (most processes never meet one, and building it was the largest part of a first call's
   * scrubbing), then kept.
   */
  escaped?: RegExp;
}

// Built once per list of secrets (a client's, or a call's with its own headers), on first use: the
// success path pays a few `includes`, and only an answer holding an escape runs the pattern.
const formsCache = new WeakMap<readonly string[], SecretForms>();

function formsOf(secrets: readonly string[]): SecretForms {
  let forms = formsCache.get(secrets);
  if (forms === undefined) {
    const long = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
    forms = {
      secrets: long,
      literals: [...new Set(long.flatMap(wholeForms))].filter((form) => form.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length),
    };
    formsCache.set(secrets, forms);
  }
  return forms;
}

/**
 * `text` with every secret replaced by `marker`, in whatever form it was echoed: as it is,
 * %-encoded (upper or lower case), base64 or base64url, hex, HTML entities, `\u` or `\x` escapes.
 */
export function scrubText(text: string, secrets: readonly string[], marker = REDACTED): string {
  if (secrets.length === 0) return text;
  const forms = formsOf(secrets);
  let out = text;
  for (const literal of forms.literals) if (out.includes(literal)) out = out.split(literal).join(marker);
  if (forms.secrets.length > 0 && ESCAPED.test(out)) {
    forms.escaped ??= new RegExp(forms.secrets.map((secret) => Array.from(secret, characterForms).join('')).join('|'), 'g');
    out = out.replace(forms.escaped, marker);
  }
  return out;
}

/**
 * A body's text and its parsed value, secrets replaced. The raw text is scrubbed first; the
 * parsed strings need a second pass only when the text has a backslash, since only an escape
 * (`\u0073k_live…`) can hide a secret from the first. That pass walks the parsed value with a
 * stack of its own, not by recursion: an answer nesting 100,000 arrays must not overflow it.
 */
export function scrubParsed(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return scrubText(value, secrets);
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown> | unknown[];
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item = node[i];
        if (typeof item === 'string') node[i] = scrubText(item, secrets);
        else if (typeof item === 'object' && item !== null) stack.push(item);
      }
      continue;
    }
    for (const key of Object.keys(node)) {
      const item = node[key];
      const cleanKey = scrubText(key, secrets);
      if (cleanKey !== key) delete node[key];
      if (typeof item === 'object' && item !== null) stack.push(item);
      // defineProperty, not assignment: JSON.parse makes `__proto__` an own key, which `=` would not reach.
      if (cleanKey !== key || typeof item === 'string') {
        Object.defineProperty(node, cleanKey, {
          value: typeof item === 'string' ? scrubText(item, secrets) : item,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      }
    }
  }
  return value;
}

// Each list of secrets in lower case: Fetch lower-cases a header's name.
const lowered = new WeakMap<readonly string[], readonly string[]>();

function loweredOf(secrets: readonly string[]): readonly string[] {
  let lower = lowered.get(secrets);
  if (lower === undefined) lowered.set(secrets, (lower = secrets.map((secret) => secret.toLowerCase())));
  return lower;
}

/** A header's name with every secret replaced by `redacted` (a token, as a name must be), in any case, whole or %-encoded. */
export function scrubHeaderName(name: string, secrets: readonly string[]): string {
  return scrubText(name, loweredOf(secrets)).split(REDACTED).join('redacted');
}

/** Answer headers with every secret replaced, in their values and their names (they may echo the key). */
export function scrubHeaders(headers: Headers, secrets: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[scrubHeaderName(name, secrets)] = scrubText(value, secrets);
  });
  return out;
}

/**
 * The answer as `withResponse()` hands it back: itself when no header holds a secret (a few
 * `includes` over its headers); otherwise a copy with the same status and URL whose headers are
 * scrubbed (its body was read already: the copy has none).
 */
export function scrubResponse(response: Response, secrets: readonly string[]): Response {
  if (secrets.length === 0) return response;
  // The names and the values each looked at in one text, a line each: a secret (no line break in
  // it, nor in any form of it) found there is in one of them. Two passes per answer, not two per header.
  let names = '';
  let values = '';
  response.headers.forEach((value, name) => {
    names += `${name}\n`;
    values += `${value}\n`;
  });
  if (scrubText(values, secrets) === values && scrubText(names, loweredOf(secrets)) === names) return response;
  const { status, statusText, url } = response;
  // A browser's opaque redirect (status 0) cannot be given to the constructor.
  const copy = new Response(null, { status: Math.max(status, 200), statusText, headers: scrubHeaders(response.headers, secrets) });
  return Object.defineProperties(copy, { url: { value: url }, status: { value: status } });
}

/** Request headers as logs and hooks show them: names kept, values from the allow-list only. */
export function redactHeaders(headers: Readonly<Record<string, string>>, authHeaderName: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = isShownHeader(name, authHeaderName) ? value : REDACTED;
  return out;
}
