// Where a command writes: the human text or the one JSON document on stdout, the rest on stderr.
import { isDeliveryError } from '../index.js';
import { type ExitCode, exitCodeOf, UsageError } from './exit.js';

export interface Io {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** `--json`: stdout carries only JSON. */
  readonly json: boolean;
}

/** `1 label`, `2 labels`, `1,200 rows`: a count and its noun, singular for one. */
export const plural = (count: number, one: string, many = `${one}s`): string => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

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
