/**
 * What checking an order costs on the send path: `createDelivery` with `validate` on and off, over
 * a `fetch` that answers in-process at once, so the difference is the checking step `create`
 * runs (the plain check; zod only for an order it refuses), not a validator off that path.
 */
import { pathToFileURL } from 'node:url';
import { childMain } from './child.mjs';
import { realisticOrder } from './order.mjs';
import { median, rotate } from './stats.mjs';

const CREATED = JSON.stringify({ success: true, message: 'Delivery created', data: { _id: 'd1', trackingNumber: '70000001' } });

childMain(async ({ targets, rounds, callsPerRound }) => {
  const { DeliveryCore, createDelivery } = await import(pathToFileURL(targets.functions).href);
  const fetch = async () => new Response(CREATED, { status: 201, headers: { 'content-type': 'application/json' } });
  const cores = {
    checked: new DeliveryCore({ baseUrl: 'https://api.example.com/v2', apiKey: 'bench-key-1', fetch }),
    unchecked: new DeliveryCore({ baseUrl: 'https://api.example.com/v2', apiKey: 'bench-key-1', fetch, validate: false }),
  };
  const order = realisticOrder();
  const names = Object.keys(cores);
  for (const name of names) for (let i = 0; i < 2_000; i++) await createDelivery(cores[name], order);
  const perCall = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const name of rotate(names, round)) {
      const t0 = performance.now();
      for (let i = 0; i < callsPerRound; i++) await createDelivery(cores[name], order);
      perCall[name].push((performance.now() - t0) / callsPerRound);
    }
  }
  const checked = median(perCall.checked);
  const unchecked = median(perCall.unchecked);
  return { checked, unchecked, checkMs: checked - unchecked };
});
