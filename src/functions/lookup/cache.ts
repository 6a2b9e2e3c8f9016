/** The client's lookup cache, cleared without loading anything: this module ships with the client. */
import { coreInternals, type DeliveryCore } from '../delivery-core.js';

/**
 * Forgets every cached lookup answer of this client. Synchronous, and small enough to ship with
 * the client: it loads nothing.
 *
 * @operation lookup.clearCache
 * @chunk core
 *
 * @example
 * ```ts
 * client.lookup.clearCache();
 * ```
 */
export function clearLookupCache(core: DeliveryCore): void {
  coreInternals(core).lookupCache?.clear();
}
