/**
 * The names the namespace classes were released under (0.1.0). Each class holds a namespace of
 * `DeliveryClient`, not a resource, and is now named for it (`DeliveriesNamespace`). Kept so that
 * code naming them, in a type or with `instanceof`, goes on compiling and working; they go in 1.0.
 */
import { BusinessesNamespace } from './businesses.js';
import { DeliveriesNamespace } from './deliveries.js';
import { FulfillmentNamespace } from './fulfillment.js';
import { LookupNamespace } from './lookup.js';
import { PickupLocationsNamespace } from './pickup-locations.js';
import { PickupsNamespace } from './pickups.js';
import { PricingNamespace } from './pricing.js';
import { UsersNamespace } from './users.js';

/**
 * {@link BusinessesNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link BusinessesNamespace}: this name goes in 1.0.
 */
export const BusinessesResource = BusinessesNamespace;
/**
 * {@link BusinessesNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link BusinessesNamespace}: this name goes in 1.0.
 */
export type BusinessesResource = BusinessesNamespace;

/**
 * {@link DeliveriesNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link DeliveriesNamespace}: this name goes in 1.0.
 */
export const DeliveriesResource = DeliveriesNamespace;
/**
 * {@link DeliveriesNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link DeliveriesNamespace}: this name goes in 1.0.
 */
export type DeliveriesResource = DeliveriesNamespace;

/**
 * {@link FulfillmentNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link FulfillmentNamespace}: this name goes in 1.0.
 */
export const FulfillmentResource = FulfillmentNamespace;
/**
 * {@link FulfillmentNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link FulfillmentNamespace}: this name goes in 1.0.
 */
export type FulfillmentResource = FulfillmentNamespace;

/**
 * {@link LookupNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link LookupNamespace}: this name goes in 1.0.
 */
export const LookupResource = LookupNamespace;
/**
 * {@link LookupNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link LookupNamespace}: this name goes in 1.0.
 */
export type LookupResource = LookupNamespace;

/**
 * {@link PickupLocationsNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link PickupLocationsNamespace}: this name goes in 1.0.
 */
export const PickupLocationsResource = PickupLocationsNamespace;
/**
 * {@link PickupLocationsNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link PickupLocationsNamespace}: this name goes in 1.0.
 */
export type PickupLocationsResource = PickupLocationsNamespace;

/**
 * {@link PickupsNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link PickupsNamespace}: this name goes in 1.0.
 */
export const PickupsResource = PickupsNamespace;
/**
 * {@link PickupsNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link PickupsNamespace}: this name goes in 1.0.
 */
export type PickupsResource = PickupsNamespace;

/**
 * {@link PricingNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link PricingNamespace}: this name goes in 1.0.
 */
export const PricingResource = PricingNamespace;
/**
 * {@link PricingNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link PricingNamespace}: this name goes in 1.0.
 */
export type PricingResource = PricingNamespace;

/**
 * {@link UsersNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link UsersNamespace}: this name goes in 1.0.
 */
export const UsersResource = UsersNamespace;
/**
 * {@link UsersNamespace} under the name it was released with (0.1.0).
 *
 * @deprecated Renamed {@link UsersNamespace}: this name goes in 1.0.
 */
export type UsersResource = UsersNamespace;
