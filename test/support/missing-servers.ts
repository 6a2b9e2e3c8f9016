// A vitest reporter (vitest.config.ts): when redis-server is not installed, the Redis tracker tests
// skip themselves (test/webhooks/redis/server.ts; under CI=true they fail instead), and this says
// so in one line at the end of the run, with how to install it, so they are never skipped unnoticed.
import type { Reporter, TestModule } from 'vitest/node';
import { INSTALL_REDIS, REDIS_SERVER } from '../webhooks/redis/server.js';

/** The line for the Redis tests a run skipped, or `undefined` when it skipped none. */
function skippedRedisLine(skipped: ReadonlyArray<{ file: string; tests: number }>): string | undefined {
  const total = skipped.reduce((sum, file) => sum + file.tests, 0);
  if (total === 0) return undefined;
  return `redis-server not found: skipped ${total} Redis tracker tests (${skipped.map((file) => file.file).join(', ')}); ${INSTALL_REDIS} to run them.`;
}

export default class RedisSkipReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (REDIS_SERVER !== undefined) return;
    const skipped = testModules
      .filter((module) => module.relativeModuleId.startsWith('test/webhooks/redis/'))
      .map((module) => ({ file: module.relativeModuleId, tests: [...module.children.allTests('skipped')].length }))
      .filter((file) => file.tests > 0);
    const line = skippedRedisLine(skipped);
    if (line !== undefined) process.stdout.write(`\n${line}\n`);
  }
}
