/** Fee quotes. */
import { asRecord } from '../../internal/guards.js';
import type { PriceQuery } from '../../schemas/after-create.js';
import { schemaCheck } from '../../schemas/check.js';
import { endpoint } from '../endpoint.js';

/** An amount as the fee answer nests it. */
export interface Amount {
  amount?: number | undefined;
  [field: string]: unknown;
}

/** A fee quote: the fields two integrations read, and anything else the service sends. */
export interface PriceQuote {
  shippingFee?: number | undefined;
  priceAfterVat?: number | undefined;
  extraCodFee?: Amount | undefined;
  tier?: { openingPackageFee?: Amount | undefined; bostaMaterialFee?: Amount | undefined; [field: string]: unknown } | undefined;
  [field: string]: unknown;
}

/**
 * What an order would cost (`GET /pricing/shipment/calculator`). Cities by name, as
 * `lookup.cities` gives them; `type` defaults to `'SEND'`, `size` to `'Normal'`, `cod` to 0.
 *
 * @chunk pricing
 *
 * @example
 * ```ts
 * const quote = await client.pricing.calculate({ dropOffCity: 'Giza', pickupCity: 'Cairo', cod: 250, type: 'SEND', size: 'Normal' });
 * console.log(quote.shippingFee, quote.priceAfterVat);
 * ```
 */
export const calculatePrice = /* @__PURE__ */ endpoint<[query: PriceQuery], PriceQuote>({
  name: 'pricing.calculate',
  method: 'GET',
  route: '/pricing/shipment/calculator',
  check: schemaCheck('checkPriceQuery'),
  // A GET: the query checked is the query sent, with the defaults the service's calculator expects.
  asQuery: (checked: Partial<PriceQuery>) => ({
    dropOffCity: checked.dropOffCity,
    pickupCity: checked.pickupCity,
    cod: checked.cod ?? 0,
    type: checked.type ?? 'SEND',
    size: checked.size ?? 'Normal',
  }),
  answer: (data) => ({ ...asRecord(data) }) as PriceQuote,
});
