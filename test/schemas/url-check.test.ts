// isHttpUrl (schemas/predicates.ts) reads the usual URL in one pass of its own and asks the URL
// parser about any other with `new URL` (Node 20's `URL.canParse`, once V8 has optimised its
// caller, refuses a Latin-1 host such as `bücher.de`). Fuzzed against the rule it stands for: an
// http(s) scheme, no space or control character, and a URL `new URL` reads.
// `npm run fuzz:wire` (and `npm run test:full`) runs 1,000,000 strings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHttpUrl } from '../../src/schemas/predicates.js';
import { FULL } from '../support/sizes.js';

const STRINGS = FULL ? 1_000_000 : 20_000;

/** The rule: what isHttpUrl was before it read the characters itself. */
const parses = (value: string): boolean => {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
};
const reference = (value: string): boolean => /^https?:\/\//i.test(value) && !/[\u0000-\u0020\u007f]/.test(value) && parses(value);

const pick = <T>(...values: T[]) => fc.constantFrom(...values);
const scheme = fc.oneof(pick('https://', 'http://', 'HTTPS://', 'Http://', 'https:/', 'https:', 'ftp://', 'https:\\\\', 'http:///', 'https://\\'), fc.string());
const label = fc.oneof(
  pick('cdn', 'example-shop', 'a', 'A', '-', '_', 'xn--', 'xn--nxasmq6b', 'XN--a', 'xn--a', '0x', '0x7f', '1', '255', '256', '4294967296', 'localhost', 'com'),
  pick('ex%41mple', '%00', 'bücher', 'ÄÖ', 'ß', '\u00ad', '\u200d', 'é', 'مثال', 'a\u0301', '\uff21', '..', '[::1]', '[1:2:3:4:5:6:7:8]', '[::', 'a[b'),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/),
  fc.string({ maxLength: 6 }),
);
const host = fc.array(label, { minLength: 0, maxLength: 5 }).chain((labels) => pick(labels.join('.'), `${labels.join('.')}.`, `.${labels.join('.')}`));
const userinfo = fc.oneof(
  pick('', 'user@', 'user:pass@', '@', '@@', ':@', 'a@b@', 'us er@', 'a%40b@', 'x/y@'),
  fc.string({ maxLength: 6 }).map((text) => `${text}@`),
);
const port = fc.oneof(
  pick('', ':', ':80', ':443', ':0', ':0000', ':9999', ':10000', ':65535', ':65536', ':000080', ':99999999999', ':8a', ':-1', '::', ': 80'),
  fc.nat().map((n) => `:${n}`),
);
const rest = fc.oneof(
  pick(
    '',
    '/',
    '/products/100234/photo-1.jpg',
    '?q=1',
    '#f',
    '\\path',
    '/a b',
    '/\u0000',
    '/\t',
    '/%zz',
    '/ü',
    '?@#:',
    '/\u007f',
    '/\ud800',
    '#\udfff',
    '/\u0085',
  ),
  fc.string({ maxLength: 12 }).map((text) => `/${text}`),
  fc.string({ maxLength: 12 }),
);
const urlLike = fc.oneof(
  fc.tuple(scheme, userinfo, host, port, rest).map((parts) => parts.join('')),
  fc.tuple(pick('https://', 'http://'), fc.string({ maxLength: 30, unit: 'binary' })).map((parts) => parts.join('')),
  fc.string({ maxLength: 40 }),
);

describe('isHttpUrl', () => {
  it(
    `says what the scheme test, the control-character test and the URL parser say, for ${STRINGS.toLocaleString('en-US')} generated strings`,
    () => {
      fc.assert(
        fc.property(urlLike, (value) => {
          expect(isHttpUrl(value), JSON.stringify(value)).toBe(reference(value));
        }),
        { numRuns: STRINGS },
      );
    },
    FULL ? 3_600_000 : undefined,
  );

  it('a host in Latin-1 letters stays valid however often the check has run (Node 20 URL.canParse, once optimised, refuses it)', () => {
    for (let i = 0; i < 200_000; i++) isHttpUrl(`https://cdn.example.com/${i}`);
    for (let i = 0; i < 20_000; i++) isHttpUrl(`https://10.0.0.${i % 256}/`);
    expect(isHttpUrl('https://bücher.example/photo.jpg')).toBe(true);
  });

  it.each([
    ['https://cdn.example-shop.com/products/100234/photo-1.jpg', true],
    ['HTTPS://CDN.EXAMPLE.COM:443/x', true],
    ['https://example.com.', true],
    ['https://user:pass@example.com:8080/?q#f', true],
    ['http:///example.com', true],
    ['https://example.com:65536/', false],
    ['https://:80/', false],
    ['https://user@/', false],
    ['https://', false],
    ['https://exa mple.com', false],
    ['https://example.com/\n', false],
    ['https://10.0.0.1/', true],
    ['https://256.0.0.1/', false],
    ['https://xn--a.com/', false],
    ['https://bücher.example/', true],
    ['https://[::1]:8080/', true],
    ['ftp://example.com/', false],
    ['//example.com/', false],
  ])('%s: %s', (value, expected) => {
    expect([isHttpUrl(value), reference(value)]).toEqual([expected, expected]);
  });
});
