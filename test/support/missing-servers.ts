// A vitest reporter (vitest.config.ts): when redis-server or Chromium is not installed, the tests
// that need it skip themselves (test/webhooks/redis/server.ts, test/support/chromium.ts; under
// CI=true they fail instead), and this says so in one line each at the end of the run, with how to
// install it, so they are never skipped unnoticed.
import type { Reporter, TestModule } from 'vitest/node';
import { INSTALL_REDIS, REDIS_SERVER } from '../webhooks/redis/server.js';
import { CHROMIUM, INSTALL_CHROMIUM, SKIP_WITHOUT_CHROMIUM } from './chromium.js';

/** What a missing server keeps from running: the test files that need it, what they are, and how to install it. */
const SERVERS = [
  { missing: () => REDIS_SERVER === undefined, name: 'redis-server', files: /^test\/webhooks\/redis\//, tests: 'Redis tracker tests', install: INSTALL_REDIS },
  {
    missing: () => SKIP_WITHOUT_CHROMIUM,
    name: CHROMIUM,
    files: /^test\/(?:sandbox\/dashboard-browser|docs\/blocks)\./,
    tests: 'browser tests',
    install: INSTALL_CHROMIUM,
  },
];

export default class MissingServersReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    for (const server of SERVERS) {
      if (!server.missing()) continue;
      const skipped = testModules
        .filter((module) => server.files.test(module.relativeModuleId))
        .map((module) => ({ file: module.relativeModuleId, tests: [...module.children.allTests('skipped')].length }))
        .filter((file) => file.tests > 0);
      const total = skipped.reduce((sum, file) => sum + file.tests, 0);
      if (total === 0) continue;
      const files = skipped.map((file) => file.file).join(', ');
      process.stdout.write(`\n${server.name} not found: skipped ${total} ${server.tests} (${files}); ${server.install} to run them.\n`);
    }
  }
}
