import { DeliveryClient } from '../index.js';
import type { Sandbox } from '../testing/index.js';

/**
 * Makes the sandbox's own account (its `apiKey`, the key a script is given) a ready merchant: a
 * business with a pickup location, which orders need (1073 otherwise). Made through the public
 * client over `sandbox.fetch`, as a merchant would; `sandbox.createMerchant()` makes merchants of
 * other keys, not this one.
 */
export async function readyMerchant(sandbox: Sandbox): Promise<void> {
  const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch });
  const business = await client.businesses.create({ name: 'Sandbox Shop', salesChannel: 'FACEBOOK_SELLER', website: 'https://shop.example' });
  const warehouse = await client.lookup.resolveAddress({ city: 'Cairo', district: 'Makram Ebeid', firstLine: '5 Makram Ebeid Street', for: 'pickupAddress' });
  await client.businesses.updatePickupLocations(business._id, [
    { locationName: 'Warehouse', districtId: warehouse.districtId, firstLine: warehouse.firstLine },
  ]);
}
