// Vitest's global setup: a machine without redis-server skips the Redis tracker tests (outside CI;
// under CI=true they fail instead), and says so in one line rather than silently.
import { readdirSync } from 'node:fs';
import { SKIP_WITHOUT_REDIS } from '../webhooks/redis/server.js';

/** The line `npm test` prints when it skips the Redis tests: which files, and how to install redis-server. */
export function skippedRedisLine(): string {
  const files = readdirSync(new URL('../webhooks/redis/', import.meta.url)).filter((name) => name.endsWith('.test.ts'));
  return `Skipping the Redis tracker tests (${files.map((name) => `test/webhooks/redis/${name}`).join(', ')}): redis-server is not installed. Install it to run them: sudo apt-get install redis-server (Debian, Ubuntu), brew install redis (macOS).`;
}

export default function sayWhatIsSkipped(): void {
  if (SKIP_WITHOUT_REDIS) console.warn(skippedRedisLine());
}
