/** The types of `deliveries.createBulk` and `deliveries.streamBulk`; the implementation is functions/bulk.ts. */
export type {
  BulkChunkOutcome,
  BulkCreatedDelivery,
  BulkCreateOptions,
  BulkCreateResult,
  BulkFailure,
  BulkInput,
  BulkProgress,
  BulkStreamOptions,
} from '../functions/bulk.js';
