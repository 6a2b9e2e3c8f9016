/**
 * Ctrl-C (SIGINT) and SIGTERM: the first aborts `signal` and tells the listeners, so that a
 * command ends cleanly and writes what it knows; the second runs the `force` hooks and exits 130
 * at once.
 */
import { EXIT } from './exit.js';

export class Interrupt {
  private readonly controller = new AbortController();
  private readonly firstListeners: Array<() => void> = [];
  private readonly forceHooks: Array<() => void> = [];
  private count = 0;

  /** Aborted at the first interrupt. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get interrupted(): boolean {
    return this.count > 0;
  }

  install(): void {
    const onSignal = (): void => {
      this.count++;
      if (this.count === 1) {
        for (const listener of this.firstListeners) listener();
        this.controller.abort();
        return;
      }
      for (const hook of this.forceHooks) hook();
      process.exit(EXIT.interrupted);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }

  /** Called at the first interrupt, before `signal` aborts. */
  onFirst(listener: () => void): void {
    this.firstListeners.push(listener);
  }

  /** Called at the second interrupt, synchronously, just before the process exits. */
  onForce(hook: () => void): void {
    this.forceHooks.push(hook);
  }
}
