import { isCredentialHeader } from './logger.js';

/** What replaces a secret in anything built out of an answer. */
const REDACTED = '[redacted]';

/**
 * Values shorter than this are not treated as secrets: no real key is that short, and replacing
 * every `abc` of an answer would garble it.
 */
const MIN_SECRET_LENGTH = 6;

/**
 * The secrets of a request: the API key and the values of the auth header and of credential-like
 * headers (a key put in `headers`), longest first so `Bearer <key>` goes before `<key>`.
 */
export function secretsOf(headers: Readonly<Record<string, string>>, authHeaderName: string, apiKey?: string): readonly string[] {
  const auth = authHeaderName.toLowerCase();
  const found = new Set<string>();
  if (apiKey !== undefined) found.add(apiKey);
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === auth || isCredentialHeader(name)) found.add(value);
  return [...found].filter((secret) => typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** `known` with the secrets of a call's own `headers` added, longest first. */
export function withSecretsOf(headers: Readonly<Record<string, string>>, authHeaderName: string, known: readonly string[]): readonly string[] {
  return [...new Set([...secretsOf(headers, authHeaderName), ...known])].sort((a, b) => b.length - a.length);
}

/** `text` with every secret replaced. */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** A copy of a parsed body with every secret replaced in its strings and keys (a JSON escape may have hidden one from {@link scrubText}). */
export function scrubDeep(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return scrubText(value, secrets);
  if (Array.isArray(value)) return value.map((item: unknown) => scrubDeep(item, secrets));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [scrubText(key, secrets), scrubDeep(item, secrets)]));
  }
  return value;
}

/** Response headers with every secret replaced in their values. */
export function scrubHeaders(headers: Readonly<Record<string, string>>, secrets: readonly string[]): Record<string, string> {
  if (secrets.length === 0) return { ...headers };
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, scrubText(value, secrets)]));
}
