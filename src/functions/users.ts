/** Registration of the business admin and its confirmations: public endpoints, no API key needed. */
import type { APIPromise } from '../core/api-promise.js';
import { asRecord, idString } from '../core/guards.js';
import type { ConfirmEmailInput, ConfirmPhoneInput, RegisterBusinessAdminInput, VerifyPhoneInput } from '../schemas/account.js';
import { confirmEmailCheck, confirmPhoneCheck, registerBusinessAdminCheck, verifyPhoneCheck } from '../schemas/check.js';
import { callApi } from './call-api.js';
import type { DeliveryCore } from './delivery-core.js';
import type { RequestOptions } from './options.js';

/** The registered business admin. The spec does not show the answer; fields the service adds are kept. */
export interface BusinessAdmin {
  _id?: string;
  email?: string;
  profile?: { firstName?: string; lastName?: string; phone?: string; [field: string]: unknown };
  countryId?: string;
  phoneVerified?: boolean;
  emailVerified?: boolean;
  [field: string]: unknown;
}

/** The answer of a verification step (`{ phone, codeSent }`, `{ phone, phoneVerified }`, `{ emailVerified }`); not shown by the spec. */
export interface VerificationResult {
  phone?: string;
  codeSent?: boolean;
  phoneVerified?: boolean;
  emailVerified?: boolean;
  [field: string]: unknown;
}

function adminOf(data: unknown): BusinessAdmin {
  const record = asRecord(data);
  const id = idString(record['_id']);
  return (id === undefined ? { ...record } : { ...record, _id: id }) as BusinessAdmin;
}

const resultOf = (data: unknown): VerificationResult => asRecord(data) as VerificationResult;

/**
 * Registers the business admin (`POST /users/business/admin`), as `client.users.registerBusinessAdmin` does.
 *
 * @example
 * ```ts
 * import { DeliveryCore, registerBusinessAdmin } from 'delivery-sdk/functions';
 *
 * const core = new DeliveryCore({ baseUrl: 'https://api.example.com/v2' });
 * const admin = await registerBusinessAdmin(core, {
 *   email: 'owner@shop.example', password: 's3cret!', countryId: '60e4482c7cb7d4bc4849c4d5',
 *   profile: { firstName: 'Mona', lastName: 'Adel', phone: '+201001234567' },
 * });
 * ```
 */
export function registerBusinessAdmin(core: DeliveryCore, input: RegisterBusinessAdminInput, options?: RequestOptions): APIPromise<BusinessAdmin> {
  return callApi(core, options, () => ({
    input,
    check: registerBusinessAdminCheck,
    endpoint: ({ json }) => ({ method: 'POST', path: '/users/business/admin', json, transform: adminOf }),
  }));
}

/**
 * Sends a one-time code to the phone by SMS (`POST /users/business-admin/phone/verify`), as `client.users.verifyPhone` does.
 *
 * @example
 * ```ts
 * import { DeliveryCore, verifyPhone } from 'delivery-sdk/functions';
 *
 * const { codeSent } = await verifyPhone(new DeliveryCore({ baseUrl: 'https://api.example.com/v2' }), { phone: '+201001234567' });
 * ```
 */
export function verifyPhone(core: DeliveryCore, input: VerifyPhoneInput, options?: RequestOptions): APIPromise<VerificationResult> {
  return callApi(core, options, () => ({
    input,
    check: verifyPhoneCheck,
    endpoint: ({ json }) => ({ method: 'POST', path: '/users/business-admin/phone/verify', json, transform: resultOf }),
  }));
}

/**
 * Confirms the phone with the code `verifyPhone` sent (`POST /users/business-admin/phone/confirm`), as `client.users.confirmPhone` does.
 *
 * @example
 * ```ts
 * import { DeliveryCore, confirmPhone } from 'delivery-sdk/functions';
 *
 * const { phoneVerified } = await confirmPhone(new DeliveryCore({ baseUrl: 'https://api.example.com/v2' }), { phone: '+201001234567', token: '123456' });
 * ```
 */
export function confirmPhone(core: DeliveryCore, input: ConfirmPhoneInput, options?: RequestOptions): APIPromise<VerificationResult> {
  return callApi(core, options, () => ({
    input,
    check: confirmPhoneCheck,
    endpoint: ({ json }) => ({ method: 'POST', path: '/users/business-admin/phone/confirm', json, transform: resultOf }),
  }));
}

/**
 * Confirms the e-mail with the token of the link the service mailed (`POST /users/mail/confirm`), as `client.users.confirmEmail` does.
 *
 * @example
 * ```ts
 * import { DeliveryCore, confirmEmail } from 'delivery-sdk/functions';
 *
 * const { emailVerified } = await confirmEmail(new DeliveryCore({ baseUrl: 'https://api.example.com/v2' }), { token: 'token-from-the-link' });
 * ```
 */
export function confirmEmail(core: DeliveryCore, input: ConfirmEmailInput, options?: RequestOptions): APIPromise<VerificationResult> {
  return callApi(core, options, () => ({
    input,
    check: confirmEmailCheck,
    endpoint: ({ json }) => ({ method: 'POST', path: '/users/mail/confirm', json, transform: resultOf }),
  }));
}
