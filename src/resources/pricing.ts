import type { APIPromise } from '../core/api-promise.js';
import { onFirstUse } from '../core/on-first-use.js';
import type { RequestOptions } from '../functions/options.js';
import type { PriceQuote } from '../functions/pricing.js';
import type { PriceQuery } from '../schemas/after-create.js';
import { Resource } from './resource.js';

const pricingCode = onFirstUse(() => import('../functions/pricing.js'));

/** Fee quotes. */
export class PricingResource extends Resource {
  /**
   * What an order would cost (`GET /pricing/shipment/calculator`).
   *
   * @example
   * ```ts
   * const quote = await client.pricing.calculate({ dropOffCity: 'Giza', pickupCity: 'Cairo', cod: 250, type: 'SEND', size: 'Normal' });
   * console.log(quote.shippingFee, quote.priceAfterVat);
   * ```
   */
  calculate(query: PriceQuery, options?: RequestOptions): APIPromise<PriceQuote> {
    return this.onDemand(pricingCode, (loaded) => loaded.calculatePrice(this.core, query, options));
  }
}
