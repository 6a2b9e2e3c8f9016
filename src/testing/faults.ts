import { SandboxError } from './errors.js';
import { mulberry32 } from './random.js';
import { errorResponse } from './wire.js';

/**
 * What can go wrong on the wire:
 * - `rate-limit`: 429 with `Retry-After` (seconds); nothing is done.
 * - `unavailable`: 503; nothing is done.
 * - `slow`: the answer comes `slowMs` late (the request is processed normally).
 * - `drop-before`: the connection is reset before the request is read; nothing is done.
 * - `drop-after`: the request IS processed (an order IS created), then the connection is reset.
 * - `malformed`: the request is processed, then a 200 arrives whose body is cut in half (not JSON).
 */
export type FaultKind = 'rate-limit' | 'unavailable' | 'slow' | 'drop-before' | 'drop-after' | 'malformed';
/** Every {@link FaultKind}, e.g. to inject them all: `sandbox.injectFaults({ rate: 0.3, kinds: FAULT_KINDS })`. */
export const FAULT_KINDS: readonly FaultKind[] = ['rate-limit', 'unavailable', 'slow', 'drop-before', 'drop-after', 'malformed'];

/** What {@link Sandbox.injectFaults} takes. Invalid options throw a `SandboxError`. */
export interface FaultOptions {
  /** Share of requests hit by a fault, 0 to 1. */
  readonly rate: number;
  /** Kinds drawn from, evenly. */
  readonly kinds: readonly FaultKind[];
  /** PRNG seed: the same seed hits the same requests (by order) with the same kinds. Default 1. */
  readonly seed?: number;
  /** Delay of a `slow` answer. Default 200 ms. */
  readonly slowMs?: number;
  /** `Retry-After` of a `rate-limit` answer, in seconds. Default 1. */
  readonly retryAfterSeconds?: number;
}

/** What `fetch` throws for a network failure: a TypeError, like `fetch` itself. */
function connectionReset(kind: 'drop-before' | 'drop-after'): TypeError {
  const cause = Object.assign(new Error(`Connection reset by the sandbox (injected fault: ${kind})`), { code: 'ECONNRESET' });
  return new TypeError('fetch failed', { cause });
}

export function isConnectionReset(err: unknown): err is TypeError {
  return err instanceof TypeError && err.cause instanceof Error && (err.cause as Error & { code?: string }).code === 'ECONNRESET';
}

/** Draws faults from a seeded PRNG, one draw per API request. */
export class FaultInjector {
  private options: Required<FaultOptions> | undefined;
  private random: () => number = () => 1;

  configure(options: FaultOptions): void {
    if (typeof options.rate !== 'number' || !(options.rate >= 0 && options.rate <= 1)) throw new SandboxError('injectFaults: rate must be between 0 and 1');
    if (!Array.isArray(options.kinds) || options.kinds.length === 0) throw new SandboxError('injectFaults: kinds must name at least one fault');
    for (const kind of options.kinds) {
      if (!FAULT_KINDS.includes(kind)) throw new SandboxError(`injectFaults: unknown fault '${String(kind)}'; use ${FAULT_KINDS.join(', ')}`);
    }
    this.options = { seed: 1, slowMs: 200, retryAfterSeconds: 1, ...options };
    this.random = mulberry32(this.options.seed);
  }

  clear(): void {
    this.options = undefined;
  }

  draw(): FaultKind | undefined {
    const options = this.options;
    if (options === undefined) return undefined;
    const hit = this.random() < options.rate;
    const pick = this.random();
    return hit ? options.kinds[Math.floor(pick * options.kinds.length)] : undefined;
  }

  /** Answers `request` through `handle`, bent by a fault when one is drawn. */
  async apply(handle: () => Promise<Response>): Promise<Response> {
    const kind = this.draw();
    const options = this.options;
    if (kind === undefined || options === undefined) return handle();
    switch (kind) {
      case 'rate-limit':
        return errorResponse(429, 'Too many requests', undefined, null, { 'retry-after': String(options.retryAfterSeconds) });
      case 'unavailable':
        return errorResponse(503, 'Service unavailable');
      case 'drop-before':
        throw connectionReset(kind);
      case 'slow':
        await new Promise((resolve) => setTimeout(resolve, options.slowMs));
        return handle();
      case 'drop-after':
        await handle();
        throw connectionReset(kind);
      case 'malformed': {
        const text = await (await handle()).text();
        return new Response(text.slice(0, Math.max(1, Math.floor(text.length / 2))), {
          status: 200,
          headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' },
        });
      }
    }
  }
}
