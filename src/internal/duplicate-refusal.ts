import { isRecord } from './guards.js';

/** What a refusal of a repeated `uniqueBusinessReference` says: the reference, and the order holding it when named. */
interface DuplicateRefusal {
  readonly uniqueBusinessReference?: string | undefined;
  readonly trackingNumber?: string | undefined;
}

/**
 * Reads the service's refusal of an order whose `uniqueBusinessReference` another order holds
 * ("uniqueBusinessReference 'WC_1042' is already used by order 7031567294"); undefined for any
 * other text. Its wording is not in the spec (docs/assumptions.md): any text naming the unique
 * reference and saying it is taken, with the order's tracking number when it gives one.
 */
export function duplicateRefusalOf(text: unknown, data?: unknown): DuplicateRefusal | undefined {
  if (typeof text !== 'string' || !/unique[\s_-]*business[\s_-]*reference/i.test(text) || !/already|exist|used|duplicat|taken/i.test(text)) return undefined;
  const named = isRecord(data) ? data['trackingNumber'] : undefined;
  const trackingNumber = typeof named === 'string' || typeof named === 'number' ? String(named) : /\border\s+#?(\d{4,})/i.exec(text)?.[1];
  return { uniqueBusinessReference: /['"‘“]([^'"’”]+)['"’”]/.exec(text)?.[1], trackingNumber };
}
