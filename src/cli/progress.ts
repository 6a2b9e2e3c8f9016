/**
 * Progress of an import on stderr. On a terminal, one live line redrawn in place: a bar, rows
 * read, each outcome counted apart (created, existed, refused, not sent, unknown), the rate and the
 * time left. Elsewhere (CI logs, a file), a line each
 * time another 10% of the rows is settled, and nothing in between. Written by hand rather than
 * with a progress library: one line of text and `\r`, where a library would add dependencies and
 * draw on its own timer.
 */

import { plural, thousands } from './output.js';

export interface Counts {
  /** Records read from the file, those never given to streamBulk (a place name not found, a dry run) included. */
  read: number;
  /** Records whose outcome is known. */
  settled: number;
  /** Each outcome apart, as the summary and the results file count them. */
  created: number;
  existed: number;
  refused: number;
  'not sent': number;
  unknown: number;
}

export interface ProgressOptions {
  readonly stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Records in the file, as counted before sending. */
  readonly total: number;
  /** A dry run: its rows are valid (not sent) or would be refused, nothing else. */
  readonly dryRun?: boolean;
  readonly now?: () => number;
}

/** A live terminal line is redrawn at most this often; the last state is always drawn at the end. */
const REDRAW_MS = 100;
const BAR = 20;

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export class Progress {
  private readonly started: number;
  private readonly now: () => number;
  private readonly live: boolean;
  private lastDraw = Number.NEGATIVE_INFINITY;
  private lastTenth = 0;

  constructor(private readonly options: ProgressOptions) {
    this.now = options.now ?? (() => performance.now());
    this.started = this.now();
    this.live = options.stream.isTTY === true;
  }

  /** The line for `counts`: `45% · 4,500 of 10,000 rows read · 4,370 created · 20 existed · 12 refused · 0 not sent · 0 unknown · 1,230 rows/s · 4s left`. */
  line(counts: Counts): string {
    const { total } = this.options;
    const seconds = (this.now() - this.started) / 1000;
    const rate = seconds > 0 ? counts.settled / seconds : 0;
    const left = rate > 0 ? (total - counts.settled) / rate : Number.POSITIVE_INFINITY;
    const share = total === 0 ? 1 : counts.settled / total;
    return [
      `${Math.floor(share * 100)}%`,
      `${thousands(counts.read)} of ${plural(total, 'row')} read`,
      ...(this.options.dryRun === true
        ? [`${thousands(counts['not sent'])} valid`, `${thousands(counts.refused)} would be refused`]
        : (['created', 'existed', 'refused', 'not sent', 'unknown'] as const).map((status) => `${thousands(counts[status])} ${status}`)),
      `${thousands(Math.round(rate))} rows/s`,
      counts.settled >= total ? `${duration(seconds)} in all` : `${duration(left)} left`,
    ].join(' · ');
  }

  update(counts: Counts): void {
    if (this.live) {
      const at = this.now();
      if (at - this.lastDraw < REDRAW_MS) return;
      this.lastDraw = at;
      this.draw(counts);
      return;
    }
    const tenth = this.options.total === 0 ? 10 : Math.floor((counts.settled / this.options.total) * 10);
    if (tenth <= this.lastTenth) return;
    this.lastTenth = tenth;
    this.options.stream.write(`import: ${this.line(counts)}\n`);
  }

  /** The last state, drawn whatever the time; a live line is closed with a line break. */
  finish(counts: Counts): void {
    if (this.live) {
      this.draw(counts);
      this.options.stream.write('\n');
    } else this.update(counts);
  }

  private draw(counts: Counts): void {
    const { total } = this.options;
    const filled = total === 0 ? BAR : Math.round((counts.settled / total) * BAR);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}]`;
    const text = `${bar} ${this.line(counts)}`;
    const width = this.options.stream.columns ?? 0;
    // `\r` to the start, the line cut to the terminal's width (a wrapped line cannot be redrawn), then clear to its end.
    this.options.stream.write(`\r${width > 1 && text.length >= width ? text.slice(0, width - 1) : text}\x1b[K`);
  }
}
