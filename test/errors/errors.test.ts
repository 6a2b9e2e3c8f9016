import { describe, expect, it } from 'vitest';
import {
  ApiError,
  CodLimitExceededError,
  createCodedError,
  DeliveryError,
  ErrorCode,
  errorCodeMeaning,
  isDeliveryError,
  ValidationError,
} from '../../src/index.js';

// The spec's Errors table: code and message meaning.
const SPEC_ERRORS: ReadonlyArray<readonly [ErrorCode, string]> = [
  [1061, 'Some deliveries failed, fix them and upload again'],
  [1073, 'A business location is needed before creating an order'],
  [2150, 'Product images are required when allowToOpenPackage is enabled'],
  [2151, 'Invalid delivery image URL'],
  [2152, 'Images for the same type must all be uploaded the same way, all from the dashboard or all external links, not mixed'],
  [3001, 'City Not Found'],
  [3002, 'Zone Not Found'],
  [3003, 'District Not Found'],
  [3004, 'Street Code Not Found'],
  [3005, 'CRP orders accept only refund COD values'],
  [3006, 'COD is required for Cash Collection orders'],
  [3007, 'COD must be at most 30000 EGP'],
  [3008, 'Refund COD must be at most 30000 EGP'],
  [3009, 'city, zoneId, or districtId is required'],
];

describe('the coded error classes', () => {
  it('has exactly the codes of the spec', () => {
    expect(Object.values(ErrorCode).sort((a, b) => a - b)).toEqual(SPEC_ERRORS.map(([code]) => code));
  });

  it.each(SPEC_ERRORS)('%i: one class of its own, whichever side detects it, saying "%s"', (code, meaning) => {
    const fromClient = createCodedError(code, { source: 'client' });
    const fromServer = createCodedError(code, { source: 'server', status: 400 });
    expect(fromClient).toBeInstanceOf(DeliveryError);
    expect(fromClient.constructor).toBe(fromServer.constructor);
    expect(fromClient.errorCode).toBe(code);
    expect(fromClient.name).toMatch(/Error$/);
    expect(fromClient.message).toBe(`${meaning} (errorCode ${code})`);
    expect(errorCodeMeaning[code]).toBe(meaning);
    expect(fromServer.status).toBe(400);
  });

  it('gives every code a class of its own', () => {
    expect(new Set(SPEC_ERRORS.map(([code]) => createCodedError(code, { source: 'client' }).name)).size).toBe(SPEC_ERRORS.length);
  });

  it('narrows on a code with isDeliveryError', () => {
    const err: unknown = createCodedError(ErrorCode.CodLimitExceeded, { source: 'client' });
    expect(isDeliveryError(err, ErrorCode.CodLimitExceeded)).toBe(true);
    expect(isDeliveryError(err, ErrorCode.CodRequired)).toBe(false);
    expect(err).toBeInstanceOf(CodLimitExceededError);
    expect(isDeliveryError(new Error('x'))).toBe(false);
  });

  it('names every failing field in a ValidationError message', () => {
    const err = new ValidationError(
      [
        { path: ['dropOffAddress', 'firstLine'], message: 'must be longer than 5 characters' },
        { path: ['deliveryImages', 0, 'images', 3], message: 'must be an http(s) URL' },
      ],
      { subject: 'Invalid order' },
    );
    expect(err.message).toBe('Invalid order: dropOffAddress.firstLine: must be longer than 5 characters; deliveryImages[0].images[3]: must be an http(s) URL');
  });

  it('keeps a developer hint out of the message, and in JSON', () => {
    const err = new ValidationError([{ path: ['countryId'], message: 'no city matches' }], {
      subject: 'Invalid address',
      hint: 'pass countryId: CountryId.KSA',
    });
    expect(err.message).not.toContain('CountryId');
    expect(err.hint).toBe('pass countryId: CountryId.KSA');
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({ hint: 'pass countryId: CountryId.KSA' });
    expect(new DeliveryError('x').hint).toBeUndefined();
  });

  it('serialises to JSON with its fields', () => {
    const err = new ApiError('Bad', { status: 400, errorCode: 9999, request: { method: 'POST', url: 'https://x/v2/deliveries' } });
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({ name: 'ApiError', message: 'Bad', status: 400, errorCode: 9999 });
  });
});
