/**
 * Switching single client-side rules off by their errorCode (`validate: { skip: [...] }`), for
 * a rule the live service does not enforce everywhere (the official plugin sends
 * `allowToOpenPackage: true` without `deliveryImages`, 2150).
 */

import { CLIENT_RULE_CODES, type ClientRuleCode, type RequestOptions, type ValidateOptions, type ValidateSetting } from '../core/options.js';
import { ConfigurationError } from '../errors/base.js';
import type { CoreInternals } from './core-internals.js';
import { shown } from './guards.js';
import type { Validation } from './input.js';

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

/** How `options` says a call's input is checked: the call's `validate` over the client's. A ConfigurationError for one that names no client-side rule. */
export function validationOf(internals: CoreInternals, options: RequestOptions | null | undefined): Validation {
  return resolveValidation(options?.validate, 'Request option `validate`') ?? internals.validation;
}
