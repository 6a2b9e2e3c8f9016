import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './exit.js';

/** `parseArgs`, strict, its complaints (an unknown flag, a missing value) thrown as usage errors. */
export function parseOrUsage<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** `30m`, `90s`, `1h`, `500ms`, or plain seconds, in milliseconds. */
export function durationOf(flag: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (match === null) throw new UsageError(`${flag}: expected a duration such as 30m, 90s, 1h or 500ms, received '${text}'`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[match[2] ?? 's'] ?? 1_000;
  return Math.round(Number(match[1]) * unit);
}

/** A whole number of at least `minimum`. */
export function wholeNumberOf(flag: string, text: string, minimum: number): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < minimum) throw new UsageError(`${flag}: expected a whole number of at least ${minimum}, received '${text}'`);
  return Number(text);
}

/** One of `choices`. */
export function oneOf<const C extends string>(flag: string, text: string, choices: readonly C[]): C {
  const found = choices.find((choice) => choice === text);
  if (found === undefined) throw new UsageError(`${flag}: expected ${choices.join(' or ')}, received '${text}'`);
  return found;
}
