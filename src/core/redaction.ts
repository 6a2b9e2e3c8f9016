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
  /** Each secret and its whole encodings, longest first. */
  readonly literals: readonly string[];
  /** Each secret character by character in any escape; tried only on a text with an escape in it. */
  readonly escaped: RegExp | undefined;
}

// Built once per list of secrets (a client's, or a call's with its own headers), on first use: the
// success path pays a few `includes`, and only an answer holding an escape runs the pattern.
const formsCache = new WeakMap<readonly string[], SecretForms>();

function formsOf(secrets: readonly string[]): SecretForms {
  let forms = formsCache.get(secrets);
  if (forms === undefined) {
    const literals = [...new Set(secrets.flatMap(wholeForms))].filter((form) => form.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
    const escaped = secrets.length === 0 ? undefined : new RegExp(secrets.map((secret) => Array.from(secret, characterForms).join('')).join('|'), 'g');
    forms = { literals, escaped };
    formsCache.set(secrets, forms);
  }
  return forms;
}

/**
 * `text` with every secret replaced, in whatever form it was echoed: as it is, %-encoded (upper
 * or lower case), base64 or base64url, hex, HTML entities, `\u` or `\x` escapes.
 */
export function scrubText(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  const { literals, escaped } = formsOf(secrets);
  let out = text;
  for (const literal of literals) if (out.includes(literal)) out = out.split(literal).join(REDACTED);
  if (escaped !== undefined && ESCAPED.test(out)) out = out.replace(escaped, REDACTED);
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

/** What replaces a secret in a header's name: a token, as a name must be. */
const REDACTED_NAME = 'redacted';

// The forms of each list of secrets as a header name holds them: Fetch lower-cases names.
const nameFormsCache = new WeakMap<readonly string[], { literals: readonly string[]; escaped: RegExp | undefined }>();

/** A header's name with every secret replaced, in any case and any form `scrubText` knows. */
export function scrubHeaderName(name: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return name;
  let forms = nameFormsCache.get(secrets);
  if (forms === undefined) {
    const { literals, escaped } = formsOf(secrets);
    forms = { literals: [...new Set(literals.map((literal) => literal.toLowerCase()))], escaped: escaped && new RegExp(escaped.source, 'gi') };
    nameFormsCache.set(secrets, forms);
  }
  let out = name.toLowerCase();
  const given = out;
  for (const literal of forms.literals) if (out.includes(literal)) out = out.split(literal).join(REDACTED_NAME);
  if (forms.escaped !== undefined && ESCAPED.test(out)) out = out.replace(forms.escaped, REDACTED_NAME);
  return out === given ? name : out;
}

/** Answer headers with every secret replaced, in their values and their names (they may echo the key). */
export function scrubHeaders(headers: Headers, secrets: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    const clean = scrubText(value, secrets);
    const cleanName = scrubHeaderName(name, secrets);
    out[cleanName] = cleanName in out ? `${out[cleanName]}, ${clean}` : clean;
  });
  return out;
}

/**
 * The answer as `withResponse()` hands it back: itself when no header holds a secret (the common
 * case costs a few `includes` per header); otherwise a copy whose headers are scrubbed, with the
 * same status, status text, URL, type and `redirected` (its body was read already, the copy has none).
 */
export function scrubResponse(response: Response, secrets: readonly string[]): Response {
  if (secrets.length === 0) return response;
  let holds = false;
  response.headers.forEach((value, name) => {
    holds ||= scrubText(value, secrets) !== value || scrubHeaderName(name, secrets) !== name;
  });
  if (!holds) return response;
  const headers = new Headers();
  for (const [name, value] of Object.entries(scrubHeaders(response.headers, secrets))) headers.append(name, value);
  // A status outside 200-599 (a browser's opaque redirect, 0) cannot be given to the constructor.
  const status = response.status >= 200 && response.status <= 599 ? response.status : 200;
  const copy = new Response(null, { status, statusText: response.statusText, headers });
  for (const key of ['url', 'type', 'redirected', 'status'] as const) {
    if (copy[key] !== response[key]) Object.defineProperty(copy, key, { value: response[key], enumerable: true });
  }
  return copy;
}

/** Request headers as logs and hooks show them: names kept, values from the allow-list only. */
export function redactHeaders(headers: Readonly<Record<string, string>>, authHeaderName: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = isShownHeader(name, authHeaderName) ? value : REDACTED;
  return out;
}
