import { SandboxError } from './errors.js';
import { mulberry32 } from './random.js';
import { apiPath } from './router.js';
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

/**
 * What {@link Sandbox.injectFault} takes: one fault, for the requests it names. Every filter left
 * out matches any request; the requests matching them all are counted from the moment the fault
 * is injected, and the `nth` of them, and `times - 1` more after it, are hit. A request a fault
 * injected earlier already bends is counted, not hit: this fault waits for the next one.
 *
 * @example
 * ```ts
 * sandbox.injectFault({ kind: 'drop-after', method: 'POST', path: '/deliveries' });    // the next create: made, its answer lost
 * sandbox.injectFault({ kind: 'unavailable', path: /^\/deliveries\/business\//, nth: 2, times: 3 }); // the 2nd to 4th read of an order
 * ```
 */
export interface FaultRule {
  /** What goes wrong: one of {@link FAULT_KINDS}. */
  readonly kind: FaultKind;
  /** The request's method (`'POST'`, any case). */
  readonly method?: string;
  /**
   * Its path under the base URL, without the query: a string is that path exactly
   * (`'/deliveries'`, `'/deliveries/business/70000001'`), a RegExp is tested against it.
   */
  readonly path?: string | RegExp;
  /** The API key it carries: one merchant's requests, among several sharing the sandbox. */
  readonly apiKey?: string;
  /** The first matching request hit, counting from 1. Default 1: the next one. */
  readonly nth?: number;
  /** How many matching requests are hit, from the `nth` on. Default 1 (once); `Infinity`: every one. */
  readonly times?: number;
  /** Delay of a `slow` answer. Default 200 ms. */
  readonly slowMs?: number;
  /** `Retry-After` of a `rate-limit` answer, in seconds. Default 1. */
  readonly retryAfterSeconds?: number;
}

/** A fault {@link Sandbox.injectFault} added: what it names, and what it has done so far. */
export interface InjectedFault {
  readonly kind: FaultKind;
  readonly method: string | undefined;
  readonly path: string | RegExp | undefined;
  /** The API key it is aimed at: one merchant's requests. */
  readonly apiKey: string | undefined;
  readonly nth: number;
  readonly times: number;
  /** Requests that matched it so far, hit or not. */
  readonly matched: number;
  /** Requests it bent so far: `times` once it is spent. */
  readonly hits: number;
  /** Takes it out: it bends no further request. */
  remove(): void;
}

/** Checks a {@link FaultRule}, and keeps a RegExp's flags from making its test stateful (`g`, `y`). */
function checkedRule(rule: FaultRule): FaultRule {
  if (typeof rule !== 'object' || rule === null) throw new SandboxError('injectFault: the fault must be an object');
  if (!FAULT_KINDS.includes(rule.kind)) throw new SandboxError(`injectFault: unknown fault '${String(rule.kind)}'; use ${FAULT_KINDS.join(', ')}`);
  if (rule.method !== undefined && (typeof rule.method !== 'string' || !/^[A-Za-z]+$/.test(rule.method)))
    throw new SandboxError('injectFault: method must be an HTTP method, such as POST');
  let path = rule.path;
  if (typeof path === 'string') {
    if (!path.startsWith('/') || path.includes('?'))
      throw new SandboxError(`injectFault: path '${path}' must start with / and have no query (e.g. '/deliveries')`);
  } else if (path instanceof RegExp) {
    path = new RegExp(path.source, path.flags.replace(/[gy]/g, ''));
  } else if (path !== undefined) {
    throw new SandboxError('injectFault: path must be a string or a RegExp');
  }
  if (rule.apiKey !== undefined && typeof rule.apiKey !== 'string') throw new SandboxError('injectFault: apiKey must be a string');
  const nth = rule.nth ?? 1;
  if (!Number.isSafeInteger(nth) || nth < 1) throw new SandboxError('injectFault: nth must be a whole number, 1 or more');
  const times = rule.times ?? 1;
  if (times !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(times) || times < 1))
    throw new SandboxError('injectFault: times must be a whole number, 1 or more, or Infinity');
  for (const key of ['slowMs', 'retryAfterSeconds'] as const) {
    const value = rule[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0))
      throw new SandboxError(`injectFault: ${key} must be a number, 0 or more`);
  }
  return {
    ...rule,
    nth,
    times,
    ...(path === undefined ? {} : { path }),
    ...(rule.method === undefined ? {} : { method: rule.method.toUpperCase() }),
  };
}

/**
 * A targeted fault from JSON (the control endpoints, the dashboard's form), which has neither
 * RegExp nor Infinity: `pathPattern` is a RegExp's source (`"^/deliveries/business/"`), `path` an
 * exact path, `"times": null` every matching request. The rule itself is checked by `injectFault`.
 */
export function faultRuleOf(fields: Record<string, unknown>): FaultRule {
  const { pathPattern, ...given } = fields;
  const rule = given['times'] === null ? { ...given, times: Number.POSITIVE_INFINITY } : given;
  if (pathPattern === undefined) return rule as unknown as FaultRule;
  if (rule['path'] !== undefined) throw new SandboxError('injectFault: give path or pathPattern, not both');
  if (typeof pathPattern !== 'string') throw new SandboxError('injectFault: pathPattern must be a regular expression written as a string');
  try {
    return { ...rule, path: new RegExp(pathPattern) } as unknown as FaultRule;
  } catch {
    throw new SandboxError(`injectFault: pathPattern '${pathPattern}' is not a regular expression`);
  }
}

/** A targeted fault and its counts. */
class Rule implements InjectedFault {
  matched = 0;
  hits = 0;
  constructor(
    private readonly rule: FaultRule & { readonly nth: number; readonly times: number },
    readonly remove: () => void,
  ) {}

  get kind(): FaultKind {
    return this.rule.kind;
  }
  get method(): string | undefined {
    return this.rule.method;
  }
  get path(): string | RegExp | undefined {
    return this.rule.path;
  }
  get apiKey(): string | undefined {
    return this.rule.apiKey;
  }
  get nth(): number {
    return this.rule.nth;
  }
  get times(): number {
    return this.rule.times;
  }

  /** Counts `request` when it matches; whether this fault hits it (never one an earlier fault `took`). */
  hit(request: Request, path: string | undefined, taken: boolean): boolean {
    const { method, path: wanted, apiKey } = this.rule;
    if (method !== undefined && request.method.toUpperCase() !== method) return false;
    if (wanted !== undefined && (path === undefined || (typeof wanted === 'string' ? path !== wanted : !wanted.test(path)))) return false;
    if (apiKey !== undefined && request.headers.get('authorization')?.trim() !== apiKey) return false;
    this.matched += 1;
    const hit = !taken && this.matched >= this.rule.nth && this.hits < this.rule.times;
    if (hit) this.hits += 1;
    return hit;
  }

  get slowMs(): number {
    return this.rule.slowMs ?? 200;
  }
  get retryAfterSeconds(): number {
    return this.rule.retryAfterSeconds ?? 1;
  }
}

/** What `fetch` throws for a network failure: a TypeError, like `fetch` itself. */
function connectionReset(kind: 'drop-before' | 'drop-after'): TypeError {
  const cause = Object.assign(new Error(`Connection reset by the sandbox (injected fault: ${kind})`), { code: 'ECONNRESET' });
  return new TypeError('fetch failed', { cause });
}

export function isConnectionReset(err: unknown): err is TypeError {
  return err instanceof TypeError && err.cause instanceof Error && (err.cause as Error & { code?: string }).code === 'ECONNRESET';
}

/**
 * Bends API requests: a share of them drawn from a seeded PRNG (`injectFaults`, one draw per
 * request), and the ones targeted faults name (`injectFault`), which come first.
 */
export class FaultInjector {
  private options: Required<FaultOptions> | undefined;
  private random: () => number = () => 1;
  private rules: Rule[] = [];
  /** Requests the share has bent since `injectFaults` set it. */
  private shareHits = 0;
  /** Told of every change of the faults in place: a share set, a fault added or removed, all cleared (the dashboard's live updates). */
  onChange: () => void = () => undefined;

  configure(options: FaultOptions): void {
    if (typeof options.rate !== 'number' || !(options.rate >= 0 && options.rate <= 1)) throw new SandboxError('injectFaults: rate must be between 0 and 1');
    if (!Array.isArray(options.kinds) || options.kinds.length === 0) throw new SandboxError('injectFaults: kinds must name at least one fault');
    for (const kind of options.kinds) {
      if (!FAULT_KINDS.includes(kind)) throw new SandboxError(`injectFaults: unknown fault '${String(kind)}'; use ${FAULT_KINDS.join(', ')}`);
    }
    this.options = { seed: 1, slowMs: 200, retryAfterSeconds: 1, ...options };
    this.random = mulberry32(this.options.seed);
    this.shareHits = 0;
    this.onChange();
  }

  /** The share `injectFaults` set, with the requests it has bent so far; `undefined` without one. */
  share(): (Required<FaultOptions> & { readonly hits: number }) | undefined {
    return this.options === undefined ? undefined : { ...this.options, hits: this.shareHits };
  }

  /** Adds a targeted fault; it is counted and applied after those added before it. */
  target(rule: FaultRule): InjectedFault {
    const added: Rule = new Rule(checkedRule(rule) as FaultRule & { nth: number; times: number }, () => {
      if (!this.rules.includes(added)) return;
      this.rules = this.rules.filter((candidate) => candidate !== added);
      this.onChange();
    });
    this.rules.push(added);
    this.onChange();
    return added;
  }

  /** The targeted faults in place, oldest first. */
  targeted(): readonly InjectedFault[] {
    return [...this.rules];
  }

  /** No more faults, drawn or targeted. */
  clear(): void {
    this.options = undefined;
    this.rules = [];
    this.onChange();
  }

  draw(): FaultKind | undefined {
    const options = this.options;
    if (options === undefined) return undefined;
    const hit = this.random() < options.rate;
    const pick = this.random();
    return hit ? options.kinds[Math.floor(pick * options.kinds.length)] : undefined;
  }

  /**
   * Answers `request` through `handle`, bent by a fault when one applies: the first targeted fault
   * that hits it, else one drawn. The draw is made for every request all the same, so targeted
   * faults never shift which requests a seed hits. `onFault` is told the kind of a fault that applies.
   */
  async apply(request: Request, handle: () => Promise<Response>, onFault?: (kind: FaultKind) => void): Promise<Response> {
    const drawn = this.draw();
    const path = apiPath(new URL(request.url));
    let rule: Rule | undefined;
    for (const candidate of this.rules) if (candidate.hit(request, path, rule !== undefined)) rule = candidate;
    const options = this.options;
    const kind = rule?.kind ?? drawn;
    if (kind === undefined) return handle();
    if (rule === undefined) this.shareHits += 1;
    onFault?.(kind);
    const slowMs = rule?.slowMs ?? options?.slowMs ?? 200;
    const retryAfterSeconds = rule?.retryAfterSeconds ?? options?.retryAfterSeconds ?? 1;
    switch (kind) {
      case 'rate-limit':
        return errorResponse(429, 'Too many requests', undefined, null, { 'retry-after': String(retryAfterSeconds) });
      case 'unavailable':
        return errorResponse(503, 'Service unavailable');
      case 'drop-before':
        throw connectionReset(kind);
      case 'slow':
        await new Promise((resolve) => setTimeout(resolve, slowMs));
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
