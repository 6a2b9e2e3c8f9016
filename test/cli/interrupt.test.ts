import { afterEach, describe, expect, it, vi } from 'vitest';
import { GRACE_MS, Interrupt } from '../../src/cli/interrupt.js';

// How a command is stopped: the first signal stops it cleanly, a later one or the end of the grace
// period forces it out. The clock is the test's; process.exit is watched, not run.
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function interrupted(): { interrupt: Interrupt; clock: { at: number }; exit: ReturnType<typeof vi.fn>; forced: string[] } {
  vi.useFakeTimers();
  const clock = { at: 0 };
  const interrupt = new Interrupt(() => clock.at);
  const exit = vi.fn();
  vi.spyOn(process, 'exit').mockImplementation(exit as never);
  const forced: string[] = [];
  interrupt.onForce(() => forced.push('force'));
  return { interrupt, clock, exit, forced };
}

describe('stopping a command', () => {
  it('exits 130 after SIGINT (or the SIGINT npm’s shell caught), 143 after SIGTERM or its starter gone', () => {
    interrupted(); // the grace timers of the stops below never run
    for (const [cause, code] of [
      ['SIGINT', 130],
      ['interrupted', 130],
      ['SIGTERM', 143],
      ['gone', 143],
    ] as const) {
      const interrupt = new Interrupt();
      const told: string[] = [];
      interrupt.onFirst(() => told.push(interrupt.signal.aborted ? 'after abort' : 'before abort'));
      interrupt.stop(cause);
      expect(interrupt.exitCode).toBe(code);
      expect(interrupt.signal.aborted).toBe(true);
      expect(told).toEqual(['before abort']);
    }
    expect(new Interrupt().exitCode).toBeUndefined();
  });

  it('takes a second signal within half a second for the same stop delivered twice (the group and npm), a later one as a second Ctrl-C', () => {
    const { interrupt, clock, exit, forced } = interrupted();
    interrupt.signalled('SIGINT');
    clock.at = 200;
    interrupt.signalled('SIGINT');
    expect(exit).not.toHaveBeenCalled();
    clock.at = 700;
    interrupt.signalled('SIGINT');
    expect(forced).toEqual(['force']);
    expect(exit).toHaveBeenCalledWith(130);
  });

  it('a later stop of another kind changes nothing: the first one says how the command ends', () => {
    const { interrupt } = interrupted();
    interrupt.stop('SIGTERM');
    interrupt.stop('interrupted');
    expect(interrupt.exitCode).toBe(143);
    expect(interrupt.description).toBe('Stopped (SIGTERM)');
  });

  it(`forces the exit ${GRACE_MS / 1000} s after the stop, when what is in flight has not settled`, () => {
    const { interrupt, exit, forced } = interrupted();
    interrupt.stop('SIGTERM');
    vi.advanceTimersByTime(GRACE_MS - 1);
    expect(exit).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(forced).toEqual(['force']);
    expect(exit).toHaveBeenCalledWith(143);
  });
});
