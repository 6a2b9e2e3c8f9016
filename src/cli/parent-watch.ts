/**
 * Whether the process that started the command is still there. A CI runner that cancels a job,
 * or a script that kills `npx` alone, signals the process it started; when that process dies, the
 * command is orphaned and, unless it notices, goes on creating orders nobody will hear of.
 *
 * `npx delivery-sdk` and `npm run` start the command through `sh -c` (Debian's and Ubuntu's `sh`,
 * dash, forks rather than execs), and npm forwards SIGINT and SIGTERM to that shell only:
 * - SIGTERM kills the shell: the command's parent changes.
 * - SIGINT is caught by the shell, which holds it until its child exits, so the command never
 *   hears of it. The only trace is that the shell, asleep waiting for the command, woke up: a
 *   shell run by npm wakes for nothing else while its child lives, so a wake the shell survived
 *   is read as that SIGINT (Linux, where /proc shows it; elsewhere `sh` is usually bash, which
 *   execs, and npm's signals reach the command itself).
 * Under npm, the links above the shell are watched too: npm killed alone (SIGKILL) orphans the
 * shell, and npm orphaned (the CI step's shell killed) is the job cancelled.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/** Why the watch fired: the starting process went away, or npm's shell caught a SIGINT meant for the command. */
export type ParentLoss = 'gone' | 'interrupted';

/** How often the links are looked at. Cheap: a `getppid()` and, on Linux, a few small /proc reads. */
const POLL_MS = 250;

const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ksh', 'ash']);

/** `/proc/<pid>/<name>`, or undefined where there is no /proc or the process is gone. */
function proc(pid: number, name: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** The parent of `pid`, from /proc (the name in `stat` may hold spaces and parentheses: read after the last one). */
function parentOf(pid: number): number | undefined {
  const stat = proc(pid, 'stat');
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  const parent = Number(fields?.[1]);
  return Number.isSafeInteger(parent) && parent > 0 ? parent : undefined;
}

/** A shell running one command line: `sh -c '…'`. */
function isCommandShell(pid: number): boolean {
  const argv = proc(pid, 'cmdline')?.split('\0') ?? [];
  return SHELLS.has(basename(argv[0] ?? '')) && argv[1] === '-c';
}

/** How many times `pid` went to sleep of its own accord: it grows only when the process wakes and runs. */
function wakes(pid: number): string | undefined {
  return proc(pid, 'status')?.match(/^voluntary_ctxt_switches:\s*(\d+)/m)?.[1];
}

interface Link {
  readonly child: number;
  readonly parent: number;
}

/**
 * Watches the process that started this one, and calls `lost` once, with `'gone'` when it went
 * away (or, under npm, npm or the process that ran npm did), or `'interrupted'` when npm's shell
 * caught a SIGINT (see above). Returns the function that stops watching. The timer never keeps
 * the process alive.
 */
export function watchParent(lost: (why: ParentLoss) => void, env: NodeJS.ProcessEnv = process.env): () => void {
  const start = process.ppid;
  // Already orphaned (started detached, by `setsid` or a daemon), or ignoring hang-ups (`nohup`): meant to outlive its starter.
  if (start <= 1 || ignoresHangUps() === true) return () => {};
  const links: Link[] = [];
  let shell: number | undefined;
  if (env['npm_lifecycle_event'] !== undefined) {
    let npm = start;
    if (isCommandShell(start)) {
      shell = start;
      npm = parentOf(start) ?? start;
      if (npm !== start) links.push({ child: start, parent: npm });
    }
    const caller = parentOf(npm);
    if (caller !== undefined && caller > 1) links.push({ child: npm, parent: caller });
  }
  // Where the command's own output is a terminal, Ctrl-C reaches it directly, and a shell stopped and continued (Ctrl-Z, fg) wakes too.
  const watchWakes = shell !== undefined && !process.stdin.isTTY && !process.stderr.isTTY;
  let shellWakes = watchWakes && shell !== undefined ? wakes(shell) : undefined;
  let woke = false;
  const timer = setInterval(() => {
    const gone = process.ppid !== start || links.some(({ child, parent }) => parentOf(child) !== parent);
    if (gone) return finish('gone');
    // A wake is judged on the next look: a shell killed by SIGTERM wakes to die, and is gone by then.
    if (woke) return finish('interrupted');
    if (shell !== undefined && shellWakes !== undefined) {
      const now = wakes(shell);
      woke = now !== undefined && now !== shellWakes;
      shellWakes = now;
    }
  }, POLL_MS);
  timer.unref();
  const finish = (why: ParentLoss): void => {
    clearInterval(timer);
    lost(why);
  };
  return () => clearInterval(timer);
}

/**
 * Whether SIGHUP was ignored from the start (`nohup`): the user asked the command to outlive its
 * terminal and its starter. Undefined where /proc does not say (not Linux).
 */
export function ignoresHangUps(): boolean | undefined {
  const mask = proc(process.pid, 'status')?.match(/^SigIgn:\s*([0-9a-f]+)/m)?.[1];
  return mask === undefined ? undefined : (BigInt(`0x${mask}`) & 1n) === 1n;
}
