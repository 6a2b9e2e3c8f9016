// `npm run docs:screenshot`: photographs the sandbox's dashboard in Debian's Chromium for the docs
// (docs/images/dashboard.png, which README and docs/sandbox.md show), with a day's worth of a
// team's activity: three merchants, orders of every type along their flows, a refused create, a
// receiver whose webhooks fail, a fault in place. `--every-view DIR` also photographs each view
// into DIR, for reviewing the pages. No test runs it: it rewrites a tracked file.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DeliveryClient, type OrderInput } from '../src/index.js';
import { createSandbox, type Sandbox } from '../src/testing/index.js';
import { launchBrowser } from '../test/support/chromium.js';

const { values } = parseArgs({ options: { 'every-view': { type: 'string' }, out: { type: 'string', default: 'docs/images/dashboard.png' } } });

const dropOffAddress = { city: 'Giza', districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street' };
const RECEIVERS = [
  { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' },
  { firstName: 'Omar', lastName: 'Said', phone: '+201098765432' },
  { firstName: 'Salma', lastName: 'Fathy', phone: '+201155512345' },
  { firstName: 'Karim', lastName: 'Nabil', phone: '+201223334444' },
];

/** A team's day in the sandbox: what the screenshot shows. */
export async function busyDay(sandbox: Sandbox, baseUrl: string): Promise<void> {
  const shops = [
    sandbox.createMerchant({ businessName: 'Nile Shop', webhook: { url: 'https://nile.example/hooks/delivery' } }),
    sandbox.createMerchant({ businessName: 'Giza Gadgets', webhook: { url: 'https://gadgets.example/flaky-hooks' } }),
    sandbox.createMerchant({ businessName: 'Alex Books' }),
  ];
  const scenarios = ['success', 'exceptionThenSuccess', 'unsuccessful', undefined, undefined] as const;
  let n = 0;
  for (const shop of shops) {
    const client = new DeliveryClient({ baseUrl, apiKey: shop.apiKey, maxRetries: 0 });
    for (let i = 0; i < 6; i++) {
      n += 1;
      const receiver = RECEIVERS[n % RECEIVERS.length] as (typeof RECEIVERS)[number];
      const order: OrderInput =
        n % 5 === 0
          ? { type: 15, cod: 400, pickupAddress: dropOffAddress, receiver, businessReference: `ORDER-${1000 + n}` }
          : { type: 10, cod: 150 + 25 * n, dropOffAddress, receiver, businessReference: `ORDER-${1000 + n}` };
      const { trackingNumber } = await client.deliveries.create(order);
      const scenario = scenarios[n % scenarios.length];
      if (scenario !== undefined) await sandbox.play(trackingNumber, scenario).catch(() => undefined);
      else if (n % 2 === 0) await sandbox.advance(trackingNumber, { to: 20 });
    }
    await client
      .withOptions({ validate: false })
      .request({ method: 'POST', path: '/deliveries', query: { apiVersion: 1 }, body: { type: 10, cod: 50_000, dropOffAddress, receiver: RECEIVERS[0] } })
      .catch(() => undefined);
  }
  sandbox.injectFault({ kind: 'unavailable', method: 'GET', path: /^\/deliveries\/business\//, times: 3 });
  sandbox.injectFault({ kind: 'drop-after', method: 'POST', path: '/deliveries', apiKey: shops[1]?.apiKey as string });
  await sandbox.drainWebhooks();
}

async function main(): Promise<void> {
  // Webhooks answered in process: the nile receiver takes them, the flaky one answers 503.
  const sandbox = createSandbox({
    webhookRetry: { attempts: 3, baseDelayMs: 1 },
    webhookFetch: async (url) => new Response(null, { status: url.includes('flaky') ? 503 : 200 }),
  });
  const server = await sandbox.listen();
  const browser = await launchBrowser();
  try {
    await busyDay(sandbox, server.baseUrl);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(server.dashboardUrl);
    await page.getByRole('cell', { name: 'ORDER-1018' }).waitFor();
    mkdirSync(join(values.out, '..'), { recursive: true });
    await page.screenshot({ path: values.out });
    console.log(`wrote ${values.out}`);
    const folder = values['every-view'];
    if (folder !== undefined) {
      mkdirSync(folder, { recursive: true });
      const first = sandbox.orders()[2]?.trackingNumber ?? '';
      for (const [name, hash, ready] of [
        ['orders', '#/orders', 'ORDER-1018'],
        ['order', `#/orders/${first}`, 'Timeline'],
        ['requests', '#/requests', 'Route'],
        ['webhooks', '#/webhooks', 'Attempts'],
        ['faults', '#/faults', 'Faults in place'],
      ] as const) {
        await page.evaluate((target) => {
          location.hash = target;
        }, hash);
        await page.getByText(ready, { exact: true }).first().waitFor();
        await page.screenshot({ path: join(folder, `${name}.png`), fullPage: true });
      }
      console.log(`wrote every view to ${folder}`);
    }
  } finally {
    await browser.close();
    await sandbox.close();
  }
}

await main();
