import { describe, expect, it } from 'vitest';
import { skippedRedisLine } from './missing-servers.js';

describe('npm test without redis-server', () => {
  it('says in one line which tests it skips and how to install redis-server', () => {
    const line = skippedRedisLine();
    expect(line).not.toContain('\n');
    expect(line).toContain('test/webhooks/redis/instances.test.ts');
    expect(line).toContain('test/webhooks/redis/store.test.ts');
    expect(line).toMatch(/apt-get install redis-server/);
  });
});
