import type { APIPromise } from '../core/api-promise.js';
import { asRecord } from '../core/guards.js';
import type { PriceQuery } from '../schemas/after-create.js';
import { priceQueryCheck } from '../schemas/check.js';
import { callApi } from './call-api.js';
import type { DeliveryCore } from './delivery-core.js';
import type { RequestOptions } from './options.js';

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
 * @example
 * ```ts
 * const quote = await calculatePrice(core, { dropOffCity: 'Giza', pickupCity: 'Cairo', cod: 250 });
 * console.log(quote.priceAfterVat);
 * ```
 */
export function calculatePrice(core: DeliveryCore, query: PriceQuery, options?: RequestOptions): APIPromise<PriceQuote> {
  return callApi(core, options, () => ({
    input: query,
    check: priceQueryCheck,
    // A GET: the query checked is the query sent, with the defaults the service's calculator expects.
    endpoint: ({ value }) => {
      const checked = asRecord(value) as Partial<PriceQuery>;
      return {
        method: 'GET',
        path: '/pricing/shipment/calculator',
        query: {
          dropOffCity: checked.dropOffCity,
          pickupCity: checked.pickupCity,
          cod: checked.cod ?? 0,
          type: checked.type ?? 'SEND',
          size: checked.size ?? 'Normal',
        },
        transform: (data) => ({ ...asRecord(data) }) as PriceQuote,
      };
    },
  }));
}
