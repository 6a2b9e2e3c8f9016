/**
 * Module-load hooks of the page run (bench/lib/page-run.mjs): every file loaded from the page's
 * build directory is appended to a log, one path a line, as it loads. The hooks run on a thread
 * of their own; a synchronous append is done before the module reaches the page.
 */
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let log;
let under;

export function initialize(data) {
  log = data.log;
  under = data.under;
}

export async function load(url, context, nextLoad) {
  if (url.startsWith(under)) appendFileSync(log, `${fileURLToPath(url)}\n`);
  return nextLoad(url, context);
}
