/**
 * What the reader (read.ts) makes of each declaration of src/functions/<namespace>/, and all a
 * writer (write.ts, or one of its own: the MCP tools) may use: a writer reads no source.
 */
import type { ChunkName, NamespaceName } from '../../src/functions/namespaces.js';

/** One parameter of an operation after the core, as its declaration writes it. */
export interface Parameter {
  readonly name: string;
  readonly optional: boolean;
  /** The type as written (`string`, `DeliveryTarget`, `RequestOptions`). */
  readonly type: string;
}

/** Where a declaration stands: the file (relative to the repository) and its line, from 1. */
export interface Location {
  readonly file: string;
  readonly line: number;
}

/** An operation as its declaration says it. */
export interface OperationDescriptor {
  readonly namespace: NamespaceName;
  /** The method of its namespace: `get` of `client.deliveries.get`. */
  readonly method: string;
  /** Its standalone function in `delivery-sdk/functions`: `getDelivery`. */
  readonly fn: string;
  /** An endpoint is one route, declared by `endpoint()`; a helper is a function tagged `@operation`. */
  readonly kind: 'endpoint' | 'helper';
  /** An endpoint's HTTP method and route (`GET /deliveries/business/{trackingNumber}`); a helper has none. */
  readonly route?: string | undefined;
  /** A helper's `@calls`: the operations (`deliveries.search`) or routes it calls. */
  readonly calls: readonly string[];
  /** Changes nothing at the service: an endpoint's `reads` (default: a GET); a helper all of whose calls read. */
  readonly reads: boolean;
  /**
   * Safe to repeat when the outcome is unknown: an endpoint's `idempotent` (default: a GET or a
   * PUT), `'by input'` when a function of the input decides (a create with a unique reference); a
   * helper when it reads.
   */
  readonly idempotent: boolean | 'by input';
  /** Deletes or cancels something at the service: a DELETE, or a helper that calls one. */
  readonly destructive: boolean;
  /** The code a namespace loads for it on first use (`@chunk`). */
  readonly chunk: ChunkName;
  /** Its parameters after the core, the call's options last. */
  readonly parameters: readonly Parameter[];
  /** Its return type as written: `APIPromise<DeliveryRecord>`, `AsyncGenerator<…>`. */
  readonly returns: string;
  /** The JSDoc written above the declaration, whole, less the tags that declare it (`@operation`, `@chunk`, `@calls`). */
  readonly doc: string;
  /** The first paragraph of `doc`, as plain text. */
  readonly summary: string;
  /** The module that declares it, relative to src/, without extension: `functions/deliveries/reads`. */
  readonly module: string;
  /** The types its signature names, by the module (relative to src/, no extension) that declares each. */
  readonly types: ReadonlyMap<string, string>;
  readonly location: Location;
}
