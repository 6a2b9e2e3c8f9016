// `npm run demo` must work right after `npm install`: no build, no network, no key.
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeliveryState } from 'delivery-sdk';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../../../examples/demo.js';
import { collector, runFromRoot } from '../../support/processes.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const states = (events: ReadonlyArray<{ state: number; type?: string }>) =>
  events.map((event) => (event.type === 'RTO' ? `${event.state}R` : String(event.state))).join(' ');

describe('the demo, run in process', () => {
  it('places one order of each type and receives every webhook the sandbox sent, through the header-checked handler', async () => {
    const out = collector();
    const result = await runDemo({ out });

    expect(result.orders.map((order) => order.label)).toEqual([
      'Deliver (10)',
      'Cash Collection (15)',
      'Customer Return Pickup (25)',
      'Exchange (30)',
      'Fulfillment (FXF_SEND)',
      'Fulfillment return (CUSTOMER_RETURN_PICKUP)',
    ]);
    // Each timeline is the scenario played, creation excepted (no webhook on creation).
    expect(result.orders.map((order) => states(order.events))).toEqual([
      '20 21 24 30 24 41 45',
      '20 40 47 40 45',
      '20 22 23 24 30 24 41 46',
      '20 21 24 30 24 22 47 24 24R 41R 46R',
      '25 24 30 24 41 45',
      '20 22 23 24 30 24 60',
    ]);
    expect(result.webhooks.sent).toBe(result.orders.reduce((sum, order) => sum + order.events.length, 0));
    expect(result.webhooks.accepted).toBe(result.webhooks.sent);
    for (const order of result.orders) {
      const times = order.events.map((event) => event.timeStamp ?? Number.NaN);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(new Set(times).size).toBe(times.length);
    }

    const text = out.text();
    expect(text).toContain("CodLimitExceededError, errorCode 3007, source 'client': nothing was sent (0 orders created)");
    expect(text).toContain("CodLimitExceededError, errorCode 3007, source 'server', HTTP 400");
    expect(text).toMatch(/"Dokky" → DistrictNotFoundError \(3003\): .*closest: Dokki/);
    expect(text).toContain('"الإسكندرية / سموحة" → district-eg-alexandria-smouha');
    expect(text).toContain(`Webhooks: ${result.webhooks.sent} of ${result.webhooks.sent} received`);
    expect(text).toContain('one without it got 401');
  });

  it("shows a second day: last night's orders found by reference, an address changed, one cancelled, labels printed to a file, a courier booked", async () => {
    const out = collector();
    const labelsFile = join(tmpdir(), `demo-labels-${process.pid}.pdf`);
    const { secondDay } = await runDemo({ out, labelsFile });
    expect([...secondDay.found.keys()].sort()).toEqual(['NIGHT-2001', 'NIGHT-2002', 'NIGHT-2003', 'NIGHT-2004']);
    const pdf = await readFile(labelsFile, 'latin1');
    await rm(labelsFile);
    expect(pdf.startsWith('%PDF-')).toBe(true);
    expect(pdf).toContain('/Count 3');
    expect(pdf).not.toContain(`(${secondDay.terminated})`);
    const text = out.text();
    expect(text).toContain(`#${secondDay.terminated} cancelled → state 48 (Terminated)`);
    expect(text).toMatch(/new address "3 Mosaddak Street, 2nd floor"/);
    expect(text).toContain(`on ${secondDay.pickupDate}, 10:00 to 13:00, for 3 parcels`);
  });

  it('explains the timeline in words a merchant reads: scenario titles, states by their DeliveryState names, and RTO', async () => {
    const out = collector();
    await runDemo({ out });
    const text = out.text();
    expect(text).toMatch(/^#\d+ +Cash Collection +Exception, then success +20 40 47 40 45 /m);
    expect(text).not.toMatch(/exceptionThenSuccess|threeFailedAttempts/);
    // 41 is DeliveryState.OutForDelivery: the legend says so, not the spec's bare "Picked up".
    expect(text).toContain(`${DeliveryState.OutForDelivery} Out for delivery`);
    expect(text).not.toMatch(/\b41 Picked up\b/);
    expect(text).toContain(`${DeliveryState.InTransitBetweenHubs} In transit between hubs`);
    expect(text).toMatch(/^│ RTO: Return To Origin\. .*goes back to the business/m);
  });
});

describe('npm run demo', () => {
  it('exits 0 and prints the account, the orders, both errors and the timeline table', async () => {
    const { code, stdout, stderr } = await runFromRoot(NPM, ['run', '--silent', 'demo']);
    expect(stderr.replace(/^npm warn .*\n?/gm, '')).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/sandbox API at http:\/\/127\.0\.0\.1:\d+\/v2/);
    expect(stdout).toContain('phone confirmed with the one-time code');
    expect(stdout).toContain("source 'client'");
    expect(stdout).toContain("source 'server'");
    expect(stdout).toMatch(/^Order +Type +Scenario +Timeline/m);
    expect(stdout).toMatch(/^#\d+ +Exchange +Unsuccessful +20 21 24 30 24 22 47 24 │ RTO 24 41 46 +46 Returned to business$/m);
    expect(stdout).toMatch(/^#\d+ +Fulfillment return +Success +.* 60 Returned to stock$/m);
    expect(stdout.split('\n').length).toBeLessThan(60);
  });
});
