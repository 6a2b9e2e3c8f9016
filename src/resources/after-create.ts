// The calls a merchant makes after creation, loaded together by the first of them
// (deliveries.get, list, update, labels, tracking, ...): one chunk, where a module each cost the
// page a few hundred bytes of chunk boilerplate apiece (docs/performance.md).
export { getAirwayBillFiles, getAirwayBills } from '../functions/airway-bills.js';
export { resolveBulkTrackingNumbers } from '../functions/bulk-recovery.js';
export { customerHistory } from '../functions/customer-history.js';
export { terminateDelivery, updateDelivery } from '../functions/delivery-changes.js';
export { findDeliveryByReference, getDelivery, listDeliveries, searchDeliveries } from '../functions/delivery-reads.js';
export { trackDelivery, waitForDeliveryState } from '../functions/tracking.js';
