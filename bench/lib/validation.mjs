/** Throughput of the SDK's order validation on the realistic order, in operations per second. */
import { pathToFileURL } from 'node:url';
import { childMain } from './child.mjs';
import { realisticOrder } from './order.mjs';
import { median } from './stats.mjs';

/** The name the schemas issue agreed on; the others are accepted in case it settled differently. */
const VALIDATOR_NAMES = ['validateDeliveryOrder', 'validateDelivery', 'validateOrder'];

childMain(async ({ targets, rounds, roundMs }) => {
  const sdk = await import(pathToFileURL(targets.main).href);
  const name = VALIDATOR_NAMES.find((candidate) => typeof sdk[candidate] === 'function');
  if (name === undefined) return { validator: undefined };
  const validate = sdk[name];
  const order = realisticOrder();
  validate(order); // throws if the fixture breaks a rule: the measurement must be of a passing order
  for (let i = 0; i < 5_000; i++) validate(order);

  const rates = [];
  for (let round = 0; round < rounds; round++) {
    let ops = 0;
    const t0 = performance.now();
    let elapsed = 0;
    while (elapsed < roundMs) {
      for (let i = 0; i < 200; i++) validate(order);
      ops += 200;
      elapsed = performance.now() - t0;
    }
    rates.push((ops * 1000) / elapsed);
  }
  return { validator: name, opsPerSecond: median(rates) };
});
