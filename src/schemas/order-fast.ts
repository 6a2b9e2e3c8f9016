/**
 * The order rules of order.ts, order-parts.ts and address.ts as plain reads: a check that
 * allocates nothing, run by the checking step (check.ts) on the wire form of every order before
 * the schemas. It answers one question: is this order valid, and is it sent exactly as it is?
 * When it is, its JSON text is the body. When it is not (a broken rule, a phone not in its one
 * form, such as `+20 10…` or Arabic-Indic digits, which the schemas write as `010…`, an own
 * `__proto__` key, which they drop),
 * the schemas run and produce the error, or the value to send.
 *
 * No zod here: a page that only ever sends valid orders never needs it (see check.ts).
 * test/schemas/order-fast.test.ts proves, over generated orders and every `skip` combination,
 * that this file and the schemas agree: keep them in step.
 */
import { ErrorCode } from '../errors/codes.js';
import { isFilled, isHeaderName, isSafeHeaderValue } from '../internal/guards.js';
import { COD_LIMIT, isCanonicalPhone, isHttpUrl } from './predicates.js';

type Fields = Record<string, unknown>;

/** The order families the SDK sends, by the `type`s each takes. */
const FAMILY_TYPES = {
  order: [10, 15, 25, 30, 'FXF_SEND', 'CUSTOMER_RETURN_PICKUP'],
  delivery: [10, 15, 25, 30],
  fulfillment: ['FXF_SEND', 'CUSTOMER_RETURN_PICKUP'],
  fulfillmentReturn: ['CUSTOMER_RETURN_PICKUP'],
} as const satisfies Record<string, readonly unknown[]>;

/** `order` (any type), `delivery` (the numeric types), `fulfillment` (both fulfillment types) or `fulfillmentReturn`. */
export type OrderFamily = keyof typeof FAMILY_TYPES;

/** The `type`s of an order family. @internal */
export const orderTypesOf = (family: OrderFamily): readonly unknown[] => FAMILY_TYPES[family];

const hasOwn = Object.prototype.hasOwnProperty;

/** An object of the wire form (JSON.parse made it) that the schemas send as it is: no own `__proto__` key, which they drop. */
function isPlain(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !hasOwn.call(value, '__proto__');
}

const isPlainArray = Array.isArray as (value: unknown) => value is unknown[];

const isAbsent = (value: unknown): value is null | undefined => value === undefined || value === null;
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const optionalText = (value: unknown): boolean => isAbsent(value) || typeof value === 'string';
const optionalTextOrNumber = (value: unknown): boolean => isAbsent(value) || typeof value === 'string' || isFiniteNumber(value);
const optionalBoolean = (value: unknown): boolean => isAbsent(value) || typeof value === 'boolean';
const optionalNotNegative = (value: unknown): boolean => isAbsent(value) || (isFiniteNumber(value) && value >= 0);

function contact(value: unknown): boolean {
  if (isAbsent(value)) return true;
  if (!isPlain(value)) return false;
  const phone = value['phone'];
  return (
    optionalText(value['firstName']) &&
    optionalText(value['lastName']) &&
    optionalText(value['email']) &&
    (isAbsent(phone) || (typeof phone === 'string' && isCanonicalPhone(phone)))
  );
}

function specs(value: unknown): boolean {
  if (isAbsent(value)) return true;
  if (!isPlain(value) || !optionalText(value['packageType']) || !optionalText(value['size'])) return false;
  const details = value['packageDetails'];
  if (isAbsent(details)) return true;
  if (!isPlain(details)) return false;
  const count = details['itemsCount'];
  return optionalText(details['description']) && (isAbsent(count) || (Number.isSafeInteger(count) && (count as number) >= 0));
}

function deliveryImages(value: unknown, skip: ReadonlySet<number>): boolean {
  if (isAbsent(value)) return true;
  if (!isPlainArray(value)) return false;
  for (let index = 0; index < value.length; index++) {
    const entry = value[index];
    if (!isPlain(entry) || entry['type'] !== 'ALLOW_TO_OPEN_THE_PACKAGE') return false;
    const images = entry['images'];
    if (!isPlainArray(images) || images.length < 1 || images.length > 10) return false;
    for (let at = 0; at < images.length; at++) {
      const url = images[at];
      if (typeof url !== 'string' || (!skip.has(ErrorCode.InvalidDeliveryImageUrl) && !isHttpUrl(url))) return false;
    }
  }
  return true;
}

function webhookHeaders(value: unknown): boolean {
  if (isAbsent(value)) return true;
  if (!isPlain(value)) return false;
  for (const name in value) {
    const header = value[name];
    if (!isHeaderName(name) || typeof header !== 'string' || !isSafeHeaderValue(header)) return false;
  }
  return true;
}

function fulfillmentInfo(value: unknown): boolean {
  if (!isPlain(value)) return false;
  const items = value['items'];
  if (!isPlainArray(items) || items.length < 1) return false;
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    if (!isPlain(item) || !isFilled(item['sku']) || !optionalText(item['name'])) return false;
    const quantity = item['quantity'];
    if (!Number.isSafeInteger(quantity) || (quantity as number) < 1) return false;
  }
  return true;
}

/** An order address, or with `cityAlone` a pickup address (marketplace mode may name only the city). */
function address(value: unknown, cityAlone: boolean, skip: ReadonlySet<number>): boolean {
  if (!isPlain(value)) return false;
  const firstLine = value['firstLine'];
  if (typeof firstLine !== 'string' || firstLine.trim().length <= 5) return false;
  if (
    !optionalText(value['city']) ||
    !optionalText(value['cityId']) ||
    !optionalText(value['districtId']) ||
    !optionalText(value['districtName']) ||
    !optionalText(value['zoneId']) ||
    !optionalText(value['zone']) ||
    !optionalText(value['district']) ||
    !optionalText(value['secondLine']) ||
    !optionalTextOrNumber(value['buildingNumber']) ||
    !optionalTextOrNumber(value['floor']) ||
    !optionalTextOrNumber(value['apartment']) ||
    !optionalBoolean(value['isWorkAddress'])
  ) {
    return false;
  }
  const hasDistrictId = isFilled(value['districtId']);
  // As locationRules: with none of the three, 3009 is the only finding, skipped or not.
  if (!isFilled(value['city']) && !isFilled(value['zoneId']) && !hasDistrictId) return skip.has(ErrorCode.AddressLocationRequired);
  if (hasDistrictId) return true;
  if (isFilled(value['districtName'])) return isFilled(value['cityId']);
  return cityAlone && isFilled(value['city']);
}

const optionalAddress = (value: unknown, cityAlone: boolean, skip: ReadonlySet<number>): boolean => isAbsent(value) || address(value, cityAlone, skip);

/** `cod` of orders that collect (Deliver, Exchange, fulfillment send): 0 to 30000. */
function collectedCod(cod: unknown, skip: ReadonlySet<number>): boolean {
  if (isAbsent(cod)) return true;
  return isFiniteNumber(cod) && cod >= 0 && (cod <= COD_LIMIT || skip.has(ErrorCode.CodLimitExceeded));
}

/** `cod` of a Cash Collection: required, more than 0, at most 30000. */
function cashCollectionCod(cod: unknown, skip: ReadonlySet<number>): boolean {
  if (isAbsent(cod)) return skip.has(ErrorCode.CodRequired);
  return isFiniteNumber(cod) && (cod > 0 || skip.has(ErrorCode.CodRequired)) && (cod <= COD_LIMIT || skip.has(ErrorCode.CodLimitExceeded));
}

/** `cod` of a return: a refund (0 or less) of at most 30000. */
function refundCod(cod: unknown, skip: ReadonlySet<number>): boolean {
  if (isAbsent(cod)) return true;
  return isFiniteNumber(cod) && (cod <= 0 || skip.has(ErrorCode.CrpRefundCodOnly)) && (cod >= -COD_LIMIT || skip.has(ErrorCode.RefundCodLimitExceeded));
}

/** The fields every type has, and the rules over several of them (2150, escrow within cod). */
function commonFields(order: Fields, skip: ReadonlySet<number>): boolean {
  const webhookUrl = order['webhookUrl'];
  if (
    !specs(order['specs']) ||
    !optionalText(order['notes']) ||
    !optionalText(order['businessLocationId']) ||
    !contact(order['pickupLocationContact']) ||
    !contact(order['receiver']) ||
    !optionalText(order['businessReference']) ||
    !optionalText(order['uniqueBusinessReference']) ||
    !(isAbsent(webhookUrl) || (typeof webhookUrl === 'string' && isHttpUrl(webhookUrl))) ||
    !webhookHeaders(order['webhookCustomHeaders'])
  ) {
    return false;
  }
  const goods = order['goodsInfo'];
  if (!isAbsent(goods) && !(isPlain(goods) && optionalNotNegative(goods['amount']))) return false;
  const images = order['deliveryImages'];
  if (!optionalBoolean(order['allowToOpenPackage']) || !deliveryImages(images, skip)) return false;
  // Every entry was checked above to carry an image, so a non-empty list has one.
  if (order['allowToOpenPackage'] === true && !skip.has(ErrorCode.DeliveryImagesRequired) && !(Array.isArray(images) && images.length > 0)) return false;
  const escrow = order['escrowInfo'];
  if (isAbsent(escrow)) return true;
  if (!isPlain(escrow)) return false;
  const prepaid = escrow['amountToBeCollected'];
  if (!optionalNotNegative(prepaid)) return false;
  const cod = order['cod'];
  return typeof prepaid !== 'number' || prepaid <= (typeof cod === 'number' && cod > 0 ? cod : 0);
}

/**
 * Whether `input`, an order's wire form, is of a known type, passes every rule but those `skip`
 * names, and is sent as it is: its JSON is the JSON of what the schemas return for it. `false`
 * says nothing more: ask the schemas. Never throws.
 *
 * @internal
 */
export function sendsAsWritten(input: unknown, skip: ReadonlySet<number>): boolean {
  try {
    if (!isPlain(input) || !commonFields(input, skip)) return false;
    const dropOff = input['dropOffAddress'];
    const pickup = input['pickupAddress'];
    const cod = input['cod'];
    switch (input['type']) {
      case 10:
      case 30:
        return address(dropOff, false, skip) && optionalAddress(pickup, true, skip) && collectedCod(cod, skip);
      case 15:
        return address(pickup, true, skip) && optionalAddress(dropOff, false, skip) && cashCollectionCod(cod, skip);
      case 25:
        return address(pickup, true, skip) && optionalAddress(dropOff, false, skip) && refundCod(cod, skip);
      case 'FXF_SEND':
        return (
          fulfillmentInfo(input['fulfillmentInfo']) && optionalAddress(dropOff, false, skip) && optionalAddress(pickup, true, skip) && collectedCod(cod, skip)
        );
      case 'CUSTOMER_RETURN_PICKUP':
        return (
          fulfillmentInfo(input['fulfillmentInfo']) &&
          isFilled(input['originalFulfillmentTrackingNumber']) &&
          optionalAddress(pickup, true, skip) &&
          optionalAddress(dropOff, false, skip) &&
          refundCod(cod, skip)
        );
      default:
        return false;
    }
  } catch {
    // A getter that throws, a revoked Proxy: the schemas turn it into the typed error.
    return false;
  }
}
