/**
 * Runs the `delivery-sdk` command (argv: the built file, then its arguments) and, as the process
 * exits, writes its peak RSS (the kernel's high-water mark, in bytes) to the file named by
 * DELIVERY_BENCH_RSS_FILE.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [bin, ...args] = process.argv.slice(2);
process.on('exit', () => writeFileSync(process.env.DELIVERY_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS * 1024)));
process.argv = [process.argv[0], bin, ...args];
await import(pathToFileURL(bin).href);
