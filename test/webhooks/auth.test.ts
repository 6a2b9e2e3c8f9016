import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/index.js';
import { verifyWebhookHeaders } from '../../src/webhooks/index.js';

const auth = { name: 'X-Webhook-Key', value: 'wh_live_7f3a9c' };

describe('verifyWebhookHeaders accepts the configured header', () => {
  it('from Fetch Headers, whatever the case of the name', () => {
    expect(verifyWebhookHeaders(new Headers({ 'x-webhook-key': 'wh_live_7f3a9c' }), auth)).toBe(true);
    expect(verifyWebhookHeaders(new Headers({ 'X-WEBHOOK-KEY': 'wh_live_7f3a9c' }), { name: 'x-webhook-key', value: 'wh_live_7f3a9c' })).toBe(true);
  });

  it("from Node's req.headers, whatever the case of the name", () => {
    expect(verifyWebhookHeaders({ 'x-webhook-key': 'wh_live_7f3a9c', host: 'shop.example' }, auth)).toBe(true);
    expect(verifyWebhookHeaders({ 'X-Webhook-KEY': 'wh_live_7f3a9c' }, auth)).toBe(true);
    expect(verifyWebhookHeaders({ 'x-webhook-key': ['wh_live_7f3a9c'] }, auth)).toBe(true);
  });

  it('with spaces inside the value (a scheme and a token)', () => {
    expect(verifyWebhookHeaders({ authorization: 'Bearer wh_live_7f3a9c' }, { name: 'Authorization', value: 'Bearer wh_live_7f3a9c' })).toBe(true);
  });
});

describe('verifyWebhookHeaders refuses', () => {
  it.each<[string, Record<string, string | string[] | undefined>]>([
    ['no header', {}],
    ['an undefined header', { 'x-webhook-key': undefined }],
    ['an empty value', { 'x-webhook-key': '' }],
    ['a wrong value', { 'x-webhook-key': 'wh_live_000000' }],
    ['a prefix of the value', { 'x-webhook-key': 'wh_live_7f3a9' }],
    ['the value with more after it', { 'x-webhook-key': 'wh_live_7f3a9c0' }],
    ['the value in another case', { 'x-webhook-key': 'WH_LIVE_7F3A9C' }],
    ['the value under another header', { authorization: 'wh_live_7f3a9c' }],
    ['the header sent twice', { 'x-webhook-key': ['wh_live_7f3a9c', 'wh_live_7f3a9c'] }],
  ])('%s', (_, headers) => {
    expect(verifyWebhookHeaders(headers, auth)).toBe(false);
  });
});

describe('verifyWebhookHeaders refuses a configuration the dashboard would not accept', () => {
  it.each<[string, unknown, RegExp]>([
    ['a name without a value', { name: 'X-Webhook-Key' }, /name without a value/],
    ['a name with an empty value', { name: 'X-Webhook-Key', value: '' }, /name without a value/],
    ['a value without a name', { value: 'wh_live_7f3a9c' }, /value without a name/],
    ['neither', {}, /neither/],
    ['a name that is no header name', { name: 'X Webhook Key', value: 'v' }, /not a valid HTTP header name/],
    ['a value with surrounding spaces', { name: 'X-Key', value: ' v ' }, /spaces/],
    // No header can carry these: Fetch refuses them, Node reads the bytes as Latin-1.
    ['a value with an accented letter', { name: 'X-Key', value: 'clé-secrète' }, /U\+00E9 at position 3 is not visible ASCII/],
    ['a value with an emoji', { name: 'X-Key', value: 'key-🔑' }, /U\+1F511 at position 5/],
    ['a value with a line break inside', { name: 'X-Key', value: 'a\nb' }, /U\+000A/],
    ['a value with a NUL inside', { name: 'X-Key', value: 'a\0b' }, /U\+0000/],
  ])('%s: ConfigurationError', (_, config, message) => {
    expect(() => verifyWebhookHeaders(new Headers(), config as typeof auth)).toThrow(ConfigurationError);
    expect(() => verifyWebhookHeaders(new Headers(), config as typeof auth)).toThrow(message);
  });

  it('and names no part of a refused value (it is a secret)', () => {
    expect(() => verifyWebhookHeaders(new Headers(), { name: 'X-Key', value: 'wh_live_sécret' })).toThrow(
      expect.objectContaining({ message: expect.not.stringMatching(/wh_live|cret/) }),
    );
  });
});
