import { DeliveryError } from '../errors/base.js';

/**
 * A sandbox control call was misused: an unknown tracking number, a transition the order's flow
 * does not allow, bad fault or webhook settings. For refused transitions `from` and `to` say which.
 *
 * @example
 * ```ts
 * try { await sandbox.advance(trackingNumber, { to: 45 }); }
 * catch (err) { if (err instanceof SandboxError) console.log(err.from, err.to, err.allowed); }
 * ```
 */
export class SandboxError extends DeliveryError {
  override name = 'SandboxError';
  /** The state the order was in, for a refused transition. */
  readonly from: number | undefined;
  /** The state asked for, for a refused transition. */
  readonly to: number | undefined;
  /** The states the order could move to instead, for a refused transition. */
  readonly allowed: readonly number[] | undefined;

  constructor(message: string, details: { from?: number; to?: number; allowed?: readonly number[] } = {}) {
    super(message);
    this.from = details.from;
    this.to = details.to;
    this.allowed = details.allowed;
  }
}
