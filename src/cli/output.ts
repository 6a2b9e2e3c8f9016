// Where a command writes: the human text or the one JSON document on stdout, the rest on stderr.
import { isDeliveryError } from '../index.js';
import { type ExitCode, exitCodeOf, UsageError } from './exit.js';

export interface Io {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** `--json`: stdout carries only JSON. */
  readonly json: boolean;
}

/**
 * A count with commas between its thousands, `12,345`, as `toLocaleString('en-US')` writes it:
 * by hand for a whole number, because the first `toLocaleString` of a process loads the ICU
 * number formats (about 11 ms, a whole percent of a 10,000-row import).
 */
export function thousands(count: number): string {
  if (!Number.isSafeInteger(count)) return count.toLocaleString('en-US');
  const digits = String(Math.abs(count));
  let text = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = text.length; at < digits.length; at += 3) text += `,${digits.slice(at, at + 3)}`;
  return count < 0 ? `-${text}` : text;
}

/** `1 label`, `2 labels`, `1,200 rows`: a count and its noun, singular for one. */
export const plural = (count: number, one: string, many = `${one}s`): string => `${thousands(count)} ${count === 1 ? one : many}`;

/** A line of text for people: on stdout, unless stdout is JSON's, then on stderr. */
export function say(io: Io, line = ''): void {
  (io.json ? io.stderr : io.stdout).write(`${line}\n`);
}

/** A note beside the output (progress, warnings): always stderr. */
export function note(io: Io, line: string): void {
  io.stderr.write(`${line}\n`);
}

/** The one JSON document of a command. */
export function printJson(io: Io, document: unknown): void {
  io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
}

/** What the output says of an error: its class, errorCode and message, as the results file has them. None of it carries the key: the SDK's errors never do. */
export interface ErrorFields {
  errorClass: string;
  errorCode: number | undefined;
  message: string;
}

export function errorFields(error: unknown): ErrorFields {
  if (error instanceof Error) {
    const code = isDeliveryError(error) ? error.errorCode : undefined;
    return { errorClass: error.name, errorCode: code, message: error.message };
  }
  return { errorClass: 'Error', errorCode: undefined, message: String(error) };
}

/** Reports the error a command ended with, and returns its exit code. */
export function reportFailure(io: Io, error: unknown, command: string): ExitCode {
  const code = exitCodeOf(error);
  const fields = errorFields(error);
  const hint = isDeliveryError(error) && error.hint !== undefined ? ` (${error.hint})` : '';
  const label = error instanceof UsageError ? '' : `${fields.errorClass}${fields.errorCode === undefined ? '' : ` ${fields.errorCode}`}: `;
  note(io, `${command}: ${label}${fields.message}${hint}`);
  if (error instanceof UsageError) note(io, `Run '${error.help ?? command} --help' for its usage.`);
  if (io.json) printJson(io, { error: { ...fields, ...(isDeliveryError(error) && error.mayExist ? { mayExist: true } : {}) }, exitCode: code });
  return code;
}
