// The examples import the package by its public names, which must mean its sources (src/) in this
// repository, so they run right after `npm install` without a build, and never a stale dist/.
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as main from 'delivery-sdk';
import * as testing from 'delivery-sdk/testing';
import * as webhooks from 'delivery-sdk/webhooks';
import * as node from 'delivery-sdk/webhooks/node';
import * as redis from 'delivery-sdk/webhooks/redis';
import { describe, expect, it } from 'vitest';
import * as mainSource from '../../../src/index.js';
import * as testingSource from '../../../src/testing/index.js';
import * as webhooksSource from '../../../src/webhooks/index.js';
import * as nodeSource from '../../../src/webhooks/node.js';
import * as redisSource from '../../../src/webhooks/redis.js';
import { ROOT, tsx } from '../../support/processes.js';

const ENTRIES = {
  'delivery-sdk': 'index.ts',
  'delivery-sdk/webhooks': 'webhooks/index.ts',
  'delivery-sdk/webhooks/node': 'webhooks/node.ts',
  'delivery-sdk/webhooks/redis': 'webhooks/redis.ts',
  'delivery-sdk/testing': 'testing/index.ts',
  'delivery-sdk/testing/msw': 'testing/msw.ts',
};

describe('the public names in this repository', () => {
  it('are the sources under vitest (resolve.alias): the same module objects as src/', () => {
    expect(main.DeliveryClient).toBe(mainSource.DeliveryClient);
    expect(webhooks.createWebhookHandler).toBe(webhooksSource.createWebhookHandler);
    expect(node.createNodeWebhookHandler).toBe(nodeSource.createNodeWebhookHandler);
    expect(redis.createRedisTrackerStore).toBe(redisSource.createRedisTrackerStore);
    expect(testing.createSandbox).toBe(testingSource.createSandbox);
  });

  it('are the sources under tsx (tsconfig paths), run from the repository root as npm run does', async () => {
    const probe = join(tmpdir(), `delivery-sdk-resolve-${process.pid}.mts`);
    writeFileSync(probe, `for (const name of ${JSON.stringify(Object.keys(ENTRIES))}) console.log(import.meta.resolve(name));\n`);
    try {
      const { code, stdout } = await tsx([probe]);
      expect(code).toBe(0);
      expect(stdout.trim().split('\n')).toEqual(Object.values(ENTRIES).map((file) => pathToFileURL(join(ROOT, 'src', file)).href));
    } finally {
      rmSync(probe, { force: true });
    }
  });
});
