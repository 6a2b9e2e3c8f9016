import type { AttemptClock } from './attempt-clock.js';
import { isRecord } from './guards.js';
import { scrubParsed, scrubText } from './redaction.js';

/** Decodes whole bodies only (never `stream: true`), so one decoder serves every call at once. */
const utf8 = new TextDecoder();

/**
 * The body's text, or `undefined` when it is longer than `maxBytes`: then the rest is not read
 * (the stream is cancelled, which frees the connection), and a `Content-Length` above the limit
 * stops it before the first byte. Cutting `attempt` cancels the read as well.
 */
export async function readTextWithin(response: Response, maxBytes: number, attempt: AttemptClock): Promise<string | undefined> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const body = response.body;
  if (declared > maxBytes) {
    body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (body === null) return '';
  const reader = body.getReader();
  attempt.holds(() => void reader.cancel().catch(() => undefined));
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    // A cancel ends a pending read as if the body were complete: an attempt cut short has no text.
    if (attempt.cut !== undefined) throw new Error('cut short');
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return utf8.decode(chunks[0]);
  const whole = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return utf8.decode(whole);
}

/** Frees the connection of an answer whose body is not read (a redirect, an attempt abandoned). */
export function discardBody(response: Response): void {
  if (response.body !== null && !response.bodyUsed) response.body.cancel().catch(() => undefined);
}

/** What a body turned out to be: parsed JSON, or the raw text when it is not JSON. */
export type DecodedBody = { json: true; value: unknown } | { json: false; text: string };

/**
 * The answer parsed, `secrets` scrubbed: the service may echo the key ('Invalid API key
 * sk_live_…'), even JSON-escaped. The raw text is scrubbed first; the parsed value again only
 * when the text has a backslash, since only an escape can hide a secret from the first pass.
 */
export function decodeBody(text: string, secrets: readonly string[]): DecodedBody {
  if (text === '') return { json: true, value: undefined };
  const clean = scrubText(text, secrets);
  try {
    const value = JSON.parse(clean) as unknown;
    return { json: true, value: secrets.length > 0 && text.includes('\\') ? scrubParsed(value, secrets) : value };
  } catch {
    return { json: false, text: clean };
  }
}

/**
 * The live service wraps answers as `{ success, message, data }` (`success` has been seen as the
 * string "true"). Returns `data` for such an envelope, the body itself otherwise.
 */
export function unwrapEnvelope(body: unknown): unknown {
  if (isRecord(body) && (body['success'] === true || body['success'] === 'true') && 'data' in body) return body['data'];
  return body;
}

/** Whether a 2xx body is nonetheless the spec's error shape. */
export function isErrorEnvelope(body: unknown): body is Record<string, unknown> {
  return isRecord(body) && (body['success'] === false || body['success'] === 'false');
}
