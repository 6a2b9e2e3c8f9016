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

describe('the coded error classes', () => {
  it('has one class per errorCode of the spec, named after it, whichever side detects it', () => {
    for (const code of Object.values(ErrorCode)) {
      const fromClient = createCodedError(code, { source: 'client' });
      const fromServer = createCodedError(code, { source: 'server', status: 400 });
      expect(fromClient).toBeInstanceOf(DeliveryError);
      expect(fromClient.constructor).toBe(fromServer.constructor);
      expect(fromClient.errorCode).toBe(code);
      expect(fromClient.name).toMatch(/Error$/);
      expect(fromClient.message).toContain(errorCodeMeaning[code]);
      expect(fromServer.status).toBe(400);
    }
    expect(new Set(Object.values(ErrorCode).map((code) => createCodedError(code, { source: 'client' }).name)).size).toBe(
      Object.values(ErrorCode).length,
    );
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
    expect(err.message).toBe(
      'Invalid order: dropOffAddress.firstLine: must be longer than 5 characters; deliveryImages[0].images[3]: must be an http(s) URL',
    );
  });

  it('serialises to JSON with its fields', () => {
    const err = new ApiError('Bad', { status: 400, errorCode: 9999, request: { method: 'POST', url: 'https://x/v2/deliveries' } });
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({ name: 'ApiError', message: 'Bad', status: 400, errorCode: 9999 });
  });
});
