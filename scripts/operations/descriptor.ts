/**
 * What the reader (read.ts) makes of each declaration of src/functions/<namespace>/, and all a
 * writer (write.ts, or one of its own: the MCP tools) may use: a writer reads no source.
 */
import type { ChunkName, NamespaceName } from '../../src/functions/namespaces.js';

/** A JSON Schema (draft-07), as JSON writes it. */
export type JsonSchema = { [keyword: string]: unknown };

/** One parameter of an operation after the core, as its declaration writes it. */
export interface Parameter {
  readonly name: string;
  readonly optional: boolean;
  /** The type as written (`string`, `DeliveryTarget`, `RequestOptions`). */
  readonly type: string;
  /**
   * What a JSON caller passes for it (json-schema.ts): undefined when JSON cannot carry it. Of the
   * call's options, only what the operation's own options add to those every method takes.
   */
  readonly schema: JsonSchema | undefined;
  /** The SDK checks it with its schemas before sending: its `schema` states their rules (rules.ts). */
  readonly checked: boolean;
  /** The properties of its type that are functions (the options' `onProgress`): what JSON cannot pass. */
  readonly callbacks: readonly string[];
}

/** What a call gives back, in JSON. */
export interface Result {
  /** The JSON Schema of the value (of each item, for `many`); undefined for none (`void`). */
  readonly schema: JsonSchema | undefined;
  /** Yielded one by one (an async generator): a list to read on. */
  readonly many: boolean;
  /** `undefined` is one of its values (`DeliveryRecord | undefined`: none found). */
  readonly optional: boolean;
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
  /** What it resolves with (or yields), in JSON. */
  readonly result: Result;
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
