import type { CallOptions, DeliveryClientOptions } from '../core/options.js';
import type { TtlCache } from './cache.js';
import type { ResolvedConfig } from './config.js';
import type { Validation } from './input.js';

/** What a `DeliveryCore` holds (functions/delivery-core.ts), for the machinery that sends its calls. */
export interface CoreInternals {
  /** The options the core was made with, for a `withOptions` that needs a transport of its own. */
  readonly options: DeliveryClientOptions;
  /** The client's options checked and defaulted: what every request of it carries alike. */
  readonly config: ResolvedConfig;
  /** Call options under every call's own (`withOptions({ apiKey })`): one merchant's key over a shared client. */
  readonly defaults: CallOptions;
  /** Lookup answers kept for the client's `cache.ttl`; undefined when the cache is off. */
  readonly lookupCache: TtlCache | undefined;
  /** The client's `validate`, resolved once: `false`, or the rules to leave out (none by default). */
  readonly validation: Validation;
}

/** `options` over `defaults`: an option left undefined keeps the default; headers merge by name. */
export function underneath(defaults: CallOptions, options: CallOptions): CallOptions {
  if (Object.keys(defaults).length === 0) return options;
  const merged: Record<string, unknown> = { ...defaults };
  for (const [name, value] of Object.entries(options)) if (value !== undefined) merged[name] = value;
  if (defaults.headers !== undefined && options.headers !== undefined) merged['headers'] = { ...defaults.headers, ...options.headers };
  return merged as CallOptions;
}
