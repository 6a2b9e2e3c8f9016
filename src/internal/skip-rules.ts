/**
 * Switching single client-side rules off by their errorCode (`validate: { skip: [...] }`), for
 * a rule the live service does not enforce everywhere (the official plugin sends
 * `allowToOpenPackage: true` without `deliveryImages`, 2150).
 */
import { ConfigurationError } from '../errors/base.js';
import { ErrorCode } from '../errors/codes.js';
import { shown } from './guards.js';
import type { Validation } from './input.js';

/** The errorCodes of the rules the SDK checks before sending: the only ones `skip` can name. */
export const CLIENT_RULE_CODES = [
  ErrorCode.DeliveryImagesRequired,
  ErrorCode.InvalidDeliveryImageUrl,
  ErrorCode.CrpRefundCodOnly,
  ErrorCode.CodRequired,
  ErrorCode.CodLimitExceeded,
  ErrorCode.RefundCodLimitExceeded,
  ErrorCode.AddressLocationRequired,
] as const;

/** An errorCode of a rule the SDK checks before sending (2150, 2151, 3005 to 3009). */
export type ClientRuleCode = (typeof CLIENT_RULE_CODES)[number];

/** How inputs are checked: every rule, or every rule but those in `skip`. */
export interface ValidateOptions {
  /**
   * Client-side rules not to check, by errorCode, e.g. `[ErrorCode.DeliveryImagesRequired]`.
   * The service still applies its own rules, and its refusal still maps to the coded class.
   */
  readonly skip?: readonly ClientRuleCode[] | undefined;
}

/**
 * The `validate` option of the client and of a call: `true` (the default) checks every rule,
 * `false` none, and `{ skip }` every rule but the ones named.
 */
export type ValidateSetting = boolean | ValidateOptions;

/** No rule left out. */
export const NONE: ReadonlySet<number> = new Set();
const isClientRuleCode = (code: unknown): code is ClientRuleCode => (CLIENT_RULE_CODES as readonly unknown[]).includes(code);

/**
 * The rules `skip` names, as a set; a `ConfigurationError` naming `where` for anything that is not
 * a list of client-side rule codes, so a typo never silently checks everything.
 */
export function rulesToSkip(options: ValidateOptions | undefined, where: string): ReadonlySet<number> {
  if (options === undefined || options === null) return NONE;
  if (typeof options !== 'object') throw new ConfigurationError(`${where}: expected true, false or { skip: [errorCode, ...] }, received ${shown(options)}.`);
  let skip: unknown[] | undefined;
  try {
    const given: unknown = options.skip;
    if (given !== undefined && !Array.isArray(given))
      throw new ConfigurationError(`${where}.skip: expected an array of errorCodes, e.g. [ErrorCode.DeliveryImagesRequired], received ${shown(given)}.`);
    skip = given === undefined ? undefined : [...given];
  } catch (cause) {
    throw cause instanceof ConfigurationError ? cause : new ConfigurationError(`${where} could not be read.`, { cause });
  }
  if (skip === undefined) return NONE;
  for (const code of skip) {
    if (!isClientRuleCode(code)) {
      throw new ConfigurationError(
        `${where}.skip: expected the errorCode of a rule the SDK checks (one of ${CLIENT_RULE_CODES.join(', ')}), received ${shown(code)}.`,
      );
    }
  }
  return skip.length === 0 ? NONE : new Set(skip as number[]);
}

/**
 * A `validate` setting resolved once: `undefined` when none is given (the client's stands); a
 * `ConfigurationError` naming `where` for a `skip` that is not a list of client rule codes.
 */
export function resolveValidation(setting: ValidateSetting | undefined, where: string): Validation | undefined {
  if (setting === undefined) return undefined;
  if (setting === false) return false;
  if (setting === true) return NONE;
  return rulesToSkip(setting, where);
}
