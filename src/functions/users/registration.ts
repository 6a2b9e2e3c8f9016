/** Registration of the business admin and its confirmations: public endpoints, no API key needed. */
import { asRecord, idString } from '../../internal/guards.js';
import type { ConfirmEmailInput, ConfirmPhoneInput, RegisterBusinessAdminInput, VerifyPhoneInput } from '../../schemas/account.js';
import { schemaCheck } from '../../schemas/check.js';
import { endpoint } from '../endpoint.js';

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
 * Registers the business admin (`POST /users/business/admin`), the first step of onboarding;
 * then verify the phone with {@link verifyPhone} and {@link confirmPhone}. Public: no API key needed.
 *
 * @chunk users
 *
 * @throws `ValidationError` before sending, naming each field (`profile.phone: required`, `email: is not an e-mail address`).
 * @throws `ApiError` when the service refuses the registration; `status` and `body` say why.
 *
 * @example
 * ```ts
 * const admin = await client.users.registerBusinessAdmin({
 *   email: 'owner@shop.example',
 *   password: 's3cret!',
 *   countryId: CountryId.Egypt,
 *   profile: { firstName: 'Mona', lastName: 'Adel', phone: '+201001234567' },
 * });
 * ```
 */
export const registerBusinessAdmin = /* @__PURE__ */ endpoint<[input: RegisterBusinessAdminInput], BusinessAdmin>({
  name: 'users.registerBusinessAdmin',
  method: 'POST',
  route: '/users/business/admin',
  check: schemaCheck('checkRegisterBusinessAdmin'),
  answer: adminOf,
});

/**
 * Sends a one-time code to the phone by SMS (`POST /users/business-admin/phone/verify`); pass
 * the code to {@link confirmPhone}. Not repeated on an unknown outcome: a second code would
 * replace the first.
 *
 * @chunk users
 *
 * @throws `ValidationError` when `phone` is missing or empty (nothing sent).
 *
 * @example
 * ```ts
 * const { codeSent } = await client.users.verifyPhone({ phone: '+201001234567' });
 * ```
 */
export const verifyPhone = /* @__PURE__ */ endpoint<[input: VerifyPhoneInput], VerificationResult>({
  name: 'users.verifyPhone',
  method: 'POST',
  route: '/users/business-admin/phone/verify',
  check: schemaCheck('checkVerifyPhone'),
  answer: resultOf,
});

/**
 * Confirms the phone with the one-time code {@link verifyPhone} sent (`POST /users/business-admin/phone/confirm`).
 *
 * @chunk users
 *
 * @throws `ValidationError` when `phone` or `token` is missing (nothing sent).
 * @throws `ApiError` status 400 when the code is wrong or expired; ask for a new one with `verifyPhone`.
 *
 * @example
 * ```ts
 * const { phoneVerified } = await client.users.confirmPhone({ phone: '+201001234567', token: codeFromSms });
 * ```
 */
export const confirmPhone = /* @__PURE__ */ endpoint<[input: ConfirmPhoneInput], VerificationResult>({
  name: 'users.confirmPhone',
  method: 'POST',
  route: '/users/business-admin/phone/confirm',
  check: schemaCheck('checkConfirmPhone'),
  answer: resultOf,
});

/**
 * Confirms the e-mail with the token of the verification link the service mailed at
 * registration (`POST /users/mail/confirm`; marketplace flow).
 *
 * @chunk users
 *
 * @throws `ValidationError` when `token` is missing (nothing sent).
 * @throws `ApiError` when the service refuses the token.
 *
 * @example
 * ```ts
 * const { emailVerified } = await client.users.confirmEmail({ token: tokenFromEmailLink });
 * ```
 */
export const confirmEmail = /* @__PURE__ */ endpoint<[input: ConfirmEmailInput], VerificationResult>({
  name: 'users.confirmEmail',
  method: 'POST',
  route: '/users/mail/confirm',
  check: schemaCheck('checkConfirmEmail'),
  answer: resultOf,
});
