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
  for (const [name, value] of Object.entries(headers)) if (!isShownHeader(name, authHeaderName)) found.add(value);
  return [...found].filter((secret) => typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** `text` with every secret replaced. */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
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

/** Answer headers with every secret replaced in their values (they may echo the key). */
export function scrubHeaders(headers: Headers, secrets: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = scrubText(value, secrets);
  });
  return out;
}

/** Request headers as logs and hooks show them: names kept, values from the allow-list only. */
export function redactHeaders(headers: Readonly<Record<string, string>>, authHeaderName: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = isShownHeader(name, authHeaderName) ? value : REDACTED;
  return out;
}
