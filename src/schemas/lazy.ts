/**
 * Builds a value on first use and keeps it. Every schema goes through this, so importing the SDK
 * builds nothing (cold start, tree-shaking) and each schema is built once per process.
 */
/* @__NO_SIDE_EFFECTS__ */
export function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}
