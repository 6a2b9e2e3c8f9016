import type { APIPromise } from '../core/api-promise.js';
import { onFirstUse } from '../core/on-first-use.js';
import type { RequestOptions } from '../functions/options.js';
import type { BusinessAdmin, VerificationResult } from '../functions/users.js';
import type { ConfirmEmailInput, ConfirmPhoneInput, RegisterBusinessAdminInput, VerifyPhoneInput } from '../schemas/index.js';
import { Resource } from './resource.js';

const usersCode = onFirstUse(() => import('../functions/users.js'));

export type { BusinessAdmin, VerificationResult } from '../functions/users.js';

/**
 * Registration of the business admin and its confirmations. These endpoints are public: they
 * work before you have an API key.
 *
 * @example
 * ```ts
 * const admin = await client.users.registerBusinessAdmin({
 *   email: 'owner@shop.example', password: 's3cret!', countryId: CountryId.Egypt,
 *   profile: { firstName: 'Mona', lastName: 'Adel', phone: '+201001234567' },
 * });
 * await client.users.verifyPhone({ phone: '+201001234567' });
 * await client.users.confirmPhone({ phone: '+201001234567', token: codeFromSms });
 * ```
 */
export class UsersResource extends Resource {
  /**
   * Registers the business admin (`POST /users/business/admin`), the first step of onboarding;
   * then verify the phone with {@link verifyPhone} and {@link confirmPhone}. Public: no API key needed.
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
  registerBusinessAdmin(input: RegisterBusinessAdminInput, options?: RequestOptions): APIPromise<BusinessAdmin> {
    return this.onDemand(usersCode, (loaded) => loaded.registerBusinessAdmin(this.core, input, options));
  }

  /**
   * Sends a one-time code to the phone by SMS (`POST /users/business-admin/phone/verify`); pass
   * the code to {@link confirmPhone}. Not repeated on an unknown outcome: a second code would
   * replace the first.
   *
   * @throws `ValidationError` when `phone` is missing or empty (nothing sent).
   *
   * @example
   * ```ts
   * const { codeSent } = await client.users.verifyPhone({ phone: '+201001234567' });
   * ```
   */
  verifyPhone(input: VerifyPhoneInput, options?: RequestOptions): APIPromise<VerificationResult> {
    return this.onDemand(usersCode, (loaded) => loaded.verifyPhone(this.core, input, options));
  }

  /**
   * Confirms the phone with the one-time code {@link verifyPhone} sent (`POST /users/business-admin/phone/confirm`).
   *
   * @throws `ValidationError` when `phone` or `token` is missing (nothing sent).
   * @throws `ApiError` status 400 when the code is wrong or expired; ask for a new one with `verifyPhone`.
   *
   * @example
   * ```ts
   * const { phoneVerified } = await client.users.confirmPhone({ phone: '+201001234567', token: codeFromSms });
   * ```
   */
  confirmPhone(input: ConfirmPhoneInput, options?: RequestOptions): APIPromise<VerificationResult> {
    return this.onDemand(usersCode, (loaded) => loaded.confirmPhone(this.core, input, options));
  }

  /**
   * Confirms the e-mail with the token of the verification link the service mailed at
   * registration (`POST /users/mail/confirm`; marketplace flow).
   *
   * @throws `ValidationError` when `token` is missing (nothing sent).
   * @throws `ApiError` when the service refuses the token.
   *
   * @example
   * ```ts
   * const { emailVerified } = await client.users.confirmEmail({ token: tokenFromEmailLink });
   * ```
   */
  confirmEmail(input: ConfirmEmailInput, options?: RequestOptions): APIPromise<VerificationResult> {
    return this.onDemand(usersCode, (loaded) => loaded.confirmEmail(this.core, input, options));
  }
}
