/**
 * Stopping a command cleanly: Ctrl-C (SIGINT), SIGTERM (a cancelled CI job), a hang-up (SIGHUP:
 * its terminal closed, an SSH session dropped; on Linux, not under `nohup`), or the process that started the
 * command going away (`npx` killed alone: see parent-watch.ts). The first of them aborts `signal`
 * and tells the listeners, so that the command sends nothing new, settles what is in flight and
 * writes what it knows; it then exits 130 (SIGINT) or 143 (SIGTERM, SIGHUP, starter gone).
 * A second signal, or {@link GRACE_MS} without the command having ended, runs the `force` hooks
 * (which write what is still in flight as unknown) and exits at once.
 */
import { EXIT } from './exit.js';
import { ignoresHangUps, type ParentLoss, watchParent } from './parent-watch.js';

/**
 * How long a stopped command may take to settle what is in flight before it is forced to exit: the
 * whole stop stays within 10 seconds (a CI runner's SIGTERM is followed by SIGKILL 2.5 s after,
 * GitHub Actions' SIGINT by SIGTERM 7.5 s after).
 */
export const GRACE_MS = 7_000;

/**
 * A second signal this soon after the first is the same stop delivered twice: a terminal's Ctrl-C
 * reaches every process of the group, and npm forwards the one it got to its child as well (where
 * `sh` is bash, which execs the command). A person's second Ctrl-C comes later.
 */
const SAME_STOP_MS = 500;

export type StopCause = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | ParentLoss;

export class Interrupt {
  private readonly controller = new AbortController();
  private readonly firstListeners: Array<() => void> = [];
  private readonly forceHooks: Array<() => void> = [];
  private stoppedBy: StopCause | undefined;
  private stoppedAt = 0;
  private stopWatching: () => void = () => {};

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Aborted at the first stop. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get interrupted(): boolean {
    return this.stoppedBy !== undefined;
  }

  /** What stopped the command, if anything did. */
  get cause(): StopCause | undefined {
    return this.stoppedBy;
  }

  /** The exit code of a stopped command: 130 after SIGINT (also caught by npm's shell), 143 after SIGTERM, SIGHUP or its starter gone. */
  get exitCode(): typeof EXIT.interrupted | typeof EXIT.terminated | undefined {
    if (this.stoppedBy === undefined) return undefined;
    return this.stoppedBy === 'SIGINT' || this.stoppedBy === 'interrupted' ? EXIT.interrupted : EXIT.terminated;
  }

  install(): void {
    process.on('SIGINT', () => this.signalled('SIGINT'));
    process.on('SIGTERM', () => this.signalled('SIGTERM'));
    // Without a handler a hang-up kills the command with its requests in flight. Under `nohup` it is ignored,
    // and stays so: a handler would undo that, so one is installed only where the process can tell (Linux).
    if (ignoresHangUps() === false) process.on('SIGHUP', () => this.signalled('SIGHUP'));
    this.stopWatching = watchParent((why) => this.stop(why));
  }

  /** Stops watching the starter: the command is done. */
  dispose(): void {
    this.stopWatching();
  }

  /** A signal: the first stops, a second one (not the same stop delivered twice) forces. */
  signalled(cause: 'SIGINT' | 'SIGTERM' | 'SIGHUP'): void {
    if (this.stoppedBy === undefined) this.stop(cause);
    else if (this.now() - this.stoppedAt >= SAME_STOP_MS) this.force();
  }

  /** The first stop: listeners told, `signal` aborted, and the grace period started. Later ones change nothing. */
  stop(cause: StopCause): void {
    if (this.stoppedBy !== undefined) return;
    this.stoppedBy = cause;
    this.stoppedAt = this.now();
    this.stopWatching();
    for (const listener of this.firstListeners) listener();
    this.controller.abort();
    setTimeout(() => this.force(), GRACE_MS).unref();
  }

  /** Runs the `force` hooks and exits with the stop's code, at once. */
  force(): void {
    for (const hook of this.forceHooks) hook();
    process.exit(this.exitCode ?? EXIT.interrupted);
  }

  /** What the output says of the stop: `Interrupted`, `Stopped (SIGTERM)`, ... */
  get description(): string {
    switch (this.stoppedBy) {
      case 'SIGTERM':
        return 'Stopped (SIGTERM)';
      case 'SIGHUP':
        return 'Stopped (SIGHUP: its terminal closed)';
      case 'gone':
        return 'Stopped (the process that started it went away)';
      default:
        return 'Interrupted';
    }
  }

  /** Called at the first stop, before `signal` aborts. */
  onFirst(listener: () => void): void {
    this.firstListeners.push(listener);
  }

  /** Called when the command is forced to exit, synchronously, just before the process exits. */
  onForce(hook: () => void): void {
    this.forceHooks.push(hook);
  }
}
