import { ValidationError } from '../errors/index.js';
import { isFilled, shown } from './guards.js';

/** Percent-decodes until nothing changes (a few rounds), so `%252e` is read as `.` too; undecodable text is kept as is. */
function fullyDecoded(value: string): string {
  let current = value;
  for (let round = 0; round < 4; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return current;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

/**
 * `value` when it can be one path segment (an id). Throws a ValidationError naming `name` for an
 * empty value, `.` or `..` in any encoding: URL resolution (or the service, decoding it) would read
 * them as "this folder" and "the folder above", and send the call, key and body, to another path.
 */
export function pathSegment(value: string, name: string): string {
  requireWellFormed(value, [name], 'Invalid argument');
  const decoded = fullyDecoded(value).trim();
  if (decoded === '' || decoded === '.' || decoded === '..') {
    throw new ValidationError([{ path: [name], message: `expected an id, received ${shown(value)}` }], { subject: 'Invalid argument' });
  }
  return value;
}

/** An id for a path segment: a string with something besides whitespace, not `.` or `..` in any encoding, or a `ValidationError` naming the argument. */
export function requireId(value: unknown, name: string): string {
  if (isFilled(value)) return pathSegment(value, name);
  throw new ValidationError([{ path: [name], message: `expected a non-empty string, received ${shown(value)}` }], { subject: 'Invalid argument' });
}

/** Whether `path` resolved against `baseUrl`, as fetch resolves it (`..`, `%2e%2e`, `\\` included), lands below `baseUrl`'s path. */
// A UTF-16 surrogate without its pair (what `'Cairo 🏙️'.slice(0, 7)` leaves): no URL can carry it, and encodeURIComponent throws a URIError.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Refuses text that cannot be percent-encoded, naming the field, before anything is sent. */
function requireWellFormed(value: string, at: ReadonlyArray<string | number>, subject: string): void {
  if (LONE_SURROGATE.test(value))
    throw new ValidationError([{ path: at, message: 'contains a lone surrogate (half of a character, as a cut emoji leaves): it cannot be sent in a URL' }], {
      subject,
    });
}

function staysBelow(baseUrl: string, base: URL, path: string): boolean {
  let resolved: URL;
  try {
    resolved = new URL(`${baseUrl}${path}`);
  } catch {
    return false;
  }
  return resolved.origin === base.origin && resolved.pathname.startsWith(base.pathname) && resolved.username === '' && resolved.password === '';
}

// Segments of letters, digits, `-`, `_`, `~` and inner dots: no dot segment, escape or scheme, so
// such a path stays below baseUrl without resolving it (three `new URL` saved on most calls).
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9_.~-]*)+$/;

/**
 * The URL a call goes to: `path` (starting with `/`) and `query` below `baseUrl`. Throws a
 * ValidationError naming `path` when the URL would land outside `baseUrl`'s path, as sent or once
 * percent-decoded (a server or proxy that decodes `%2f` before resolving): the key goes wherever
 * the URL points.
 */
export function urlBelow(baseUrl: string, path: unknown, query: Readonly<Record<string, unknown>> | undefined): string {
  const below =
    typeof path === 'string' &&
    (PLAIN_PATH.test(path) ||
      // `//host/...` and `scheme://` read as another origin to anyone who resolves the path alone.
      (path.startsWith('/') &&
        !path.startsWith('//') &&
        !path.includes('://') &&
        staysBelow(baseUrl, new URL(`${baseUrl}/`), path) &&
        staysBelow(baseUrl, new URL(`${baseUrl}/`), fullyDecoded(path))));
  if (!below) {
    throw new ValidationError([{ path: ['path'], message: `expected a path below baseUrl starting with "/", received ${shown(path)}` }], {
      subject: 'Invalid request',
    });
  }
  let search = '';
  if (query !== undefined) {
    let entries: Array<[string, unknown]>;
    try {
      entries = Object.entries(query);
    } catch (cause) {
      throw new ValidationError([{ path: ['query'], message: 'could not be read' }], { subject: 'Invalid request', cause });
    }
    for (const [key, value] of entries) {
      if (value === undefined) continue;
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        throw new ValidationError([{ path: ['query', key], message: `expected a string, number or boolean, received ${shown(value)}` }], {
          subject: 'Invalid request',
        });
      }
      const text = String(value);
      requireWellFormed(key, ['query', key], 'Invalid request');
      requireWellFormed(text, ['query', key], 'Invalid request');
      search += `${search === '' ? '?' : '&'}${encodeURIComponent(key)}=${encodeURIComponent(text)}`;
    }
  }
  return `${baseUrl}${path}${search}`;
}
