/**
 * Runs the `delivery-sdk` command (argv: the built file, then its arguments) and, as the process
 * exits, writes `{ peakRss, cpuSeconds }` to the file named by DELIVERY_BENCH_RSS_FILE: its peak
 * RSS (the kernel's high-water mark, in bytes) and the CPU time it used (user and system).
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [bin, ...args] = process.argv.slice(2);
process.on('exit', () => {
  const usage = process.resourceUsage();
  writeFileSync(
    process.env.DELIVERY_BENCH_RSS_FILE,
    JSON.stringify({ peakRss: usage.maxRSS * 1024, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 }),
  );
});
process.argv = [process.argv[0], bin, ...args];
await import(pathToFileURL(bin).href);
