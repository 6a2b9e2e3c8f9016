/** Bodies of the registration and business endpoints. */
import * as z from 'zod/mini';
import { isFilled, isRecord } from '../internal/guards.js';
import type { CheckResult } from '../internal/input.js';
import { onWire } from '../internal/input.js';
import { FILLED, filledText, object, phoneText, rule, secretText } from './fields.js';
import { checkWith, unwrap } from './issues.js';
import { lazy } from './lazy.js';
import { isEmailAddress } from './predicates.js';

/** `POST /users/business/admin`: registers the business admin. */
export interface RegisterBusinessAdminInput {
  email: string;
  password: string;
  profile: {
    firstName: string;
    lastName: string;
    /** International format in the marketplace flow, e.g. `+201001234567`. */
    phone: string;
  };
  /** Marketing source; the allowed values are not shown by the spec. */
  heardAboutUsFrom?: string | undefined;
  /** The country's `_id` (Egypt `60e4482c7cb7d4bc4849c4d5`, KSA `eF-3f9FZr`). */
  countryId: string;
}

/** `POST /users/business-admin/phone/verify`: sends a one-time code to the phone. */
export interface VerifyPhoneInput {
  phone: string;
}

/** `POST /users/business-admin/phone/confirm`: the phone and the one-time code it received. */
export interface ConfirmPhoneInput {
  phone: string;
  token: string;
}

/** `POST /users/mail/confirm`: the token of the e-mail verification link (marketplace flow). */
export interface ConfirmEmailInput {
  token: string;
}

/** `POST /businesses`, basic flow. The allowed values of the string fields are not shown by the spec. */
export interface BasicBusinessInput {
  name: string;
  /** One channel, e.g. `FACEBOOK_SELLER`. */
  salesChannel?: string | undefined;
  /** Store URL. */
  website?: string | undefined;
  industry?: string | undefined;
  interestedInServices?: string[] | undefined;
  autoCreatePickups?: false | undefined;
}

/** `POST /businesses`, marketplace flow: orders then create their pickups themselves. */
export interface MarketplaceBusinessInput {
  name: string;
  industry?: string | undefined;
  monthlyShipmentVolume?: string | undefined;
  /** Several channels, e.g. `['FACEBOOK_SELLER']`. */
  salesChannel?: string[] | undefined;
  autoCreatePickups: true;
}

/** A business of either flow; `autoCreatePickups: true` makes it a marketplace business. */
export type CreateBusinessInput = BasicBusinessInput | MarketplaceBusinessInput;

const optionalText = () => z.optional(z.string());
const accountPhone = () => phoneText(isFilled, 'must not be empty', FILLED);

/** @internal */
export const registerBusinessAdminSchema = lazy(() =>
  object({
    email: z.string().check(rule(isEmailAddress, 'is not an e-mail address', { pattern: '^[^@]+@[^@]+\\.[^@]+$' })),
    password: secretText(),
    profile: object({ firstName: filledText(), lastName: filledText(), phone: accountPhone() }),
    heardAboutUsFrom: optionalText(),
    countryId: filledText(),
  }),
);

/** @internal */
export const verifyPhoneSchema = lazy(() => object({ phone: accountPhone() }));
/** @internal */
export const confirmPhoneSchema = lazy(() => object({ phone: accountPhone(), token: secretText() }));
/** @internal */
export const confirmEmailSchema = lazy(() => object({ token: secretText() }));

/** @internal */
export const basicBusinessSchema = lazy(() =>
  object({
    name: filledText(),
    salesChannel: optionalText(),
    website: optionalText(),
    industry: optionalText(),
    interestedInServices: z.optional(z.array(z.string())),
    // `true` goes to the marketplace schema; what is left here is false or a mistake.
    autoCreatePickups: z.optional(z.boolean()),
  }),
);

/** @internal */
export const marketplaceBusinessSchema = lazy(() =>
  object({
    name: filledText(),
    industry: optionalText(),
    monthlyShipmentVolume: optionalText(),
    salesChannel: z.optional(z.array(z.string())),
    autoCreatePickups: z.literal(true),
  }),
);

/**
 * Checks a user registration (`users.registerBusinessAdmin`).
 *
 * @throws `ValidationError` listing every problem with its path (`profile.phone: required`).
 *
 * @example
 * ```ts
 * validateRegisterBusinessAdmin({
 *   email: 'owner@shop.example', password: 's3cret!', countryId: '60e4482c7cb7d4bc4849c4d5',
 *   profile: { firstName: 'Mona', lastName: 'Adel', phone: '+201001234567' },
 * });
 * ```
 */
export function validateRegisterBusinessAdmin(input: unknown): RegisterBusinessAdminInput {
  return unwrap(onWire(input, checkRegisterBusinessAdmin));
}

/** Checks the body of `users.verifyPhone`. @throws `ValidationError` */
export function validateVerifyPhone(input: unknown): VerifyPhoneInput {
  return unwrap(onWire(input, checkVerifyPhone));
}

/** Checks the body of `users.confirmPhone`. @throws `ValidationError` */
export function validateConfirmPhone(input: unknown): ConfirmPhoneInput {
  return unwrap(onWire(input, checkConfirmPhone));
}

/** Checks the body of `users.confirmEmail`. @throws `ValidationError` */
export function validateConfirmEmail(input: unknown): ConfirmEmailInput {
  return unwrap(onWire(input, checkConfirmEmail));
}

/** @internal The account bodies' checks, on their wire form (see check.ts). */
export const checkRegisterBusinessAdmin = (wire: unknown): CheckResult<RegisterBusinessAdminInput> =>
  checkWith(registerBusinessAdminSchema(), wire, 'Invalid business admin registration');
/** @internal */
export const checkVerifyPhone = (wire: unknown): CheckResult<VerifyPhoneInput> => checkWith(verifyPhoneSchema(), wire, 'Invalid phone verification');
/** @internal */
export const checkConfirmPhone = (wire: unknown): CheckResult<ConfirmPhoneInput> => checkWith(confirmPhoneSchema(), wire, 'Invalid phone confirmation');
/** @internal */
export const checkConfirmEmail = (wire: unknown): CheckResult<ConfirmEmailInput> => checkWith(confirmEmailSchema(), wire, 'Invalid e-mail confirmation');

/**
 * Checks a business of either flow (`businesses.create`): `autoCreatePickups: true` selects the
 * marketplace flow (`salesChannel` an array), anything else the basic one (`salesChannel` a string).
 *
 * @throws `ValidationError` listing every problem with its path.
 *
 * @example
 * ```ts
 * validateBusiness({ name: 'My Shop', autoCreatePickups: true, salesChannel: ['FACEBOOK_SELLER'] });
 * ```
 */
export function validateBusiness(input: unknown): CreateBusinessInput {
  return unwrap(onWire(input, checkBusiness));
}

/** @internal A business of either flow, on its wire form (see check.ts). */
export function checkBusiness(wire: unknown): CheckResult<CreateBusinessInput> {
  const marketplace = isRecord(wire) && wire['autoCreatePickups'] === true;
  const checked: CheckResult<unknown> = marketplace
    ? checkWith(marketplaceBusinessSchema(), wire, 'Invalid business')
    : checkWith(basicBusinessSchema(), wire, 'Invalid business');
  return checked as CheckResult<CreateBusinessInput>;
}
