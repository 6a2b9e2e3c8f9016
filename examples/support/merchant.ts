// What every example shares, browser-safe: how it is pointed at an API and where it prints, and the
// one-time merchant set-up (a business and its default pickup location) that orders need.
import { DeliveryClient, type DeliveryClientOptions } from 'delivery-sdk';

/** Where text goes: `process.stdout`, a test's collector, or the console. */
export interface Output {
  write(text: string): unknown;
}

/** Where an example sends its requests and prints. Run as a script, it gets a local sandbox's. */
export interface ExampleOptions {
  /** The API's base URL, ending in `/v2`: a sandbox's, or the service's. */
  readonly baseUrl: string;
  readonly apiKey?: string | undefined;
  /** Default: the global `fetch`. Tests pass `sandbox.fetch` to stay in process. */
  readonly fetch?: typeof fetch | undefined;
  /** Default: standard output (the console in a browser). */
  readonly out?: Output | undefined;
}

const consoleOutput: Output = { write: (text) => console.log(text.replace(/\n$/, '')) };

/** A `say(line)` printing to the example's output. */
export function printer(options: Pick<ExampleOptions, 'out'>): (line?: string) => void {
  const out = options.out ?? (typeof process === 'undefined' ? consoleOutput : process.stdout);
  return (line = '') => void out.write(`${line}\n`);
}

export function clientFor(options: ExampleOptions, extra: Partial<DeliveryClientOptions> = {}): DeliveryClient {
  return new DeliveryClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, fetch: options.fetch, ...extra });
}

/**
 * Once per account: a business and its first pickup location, which becomes the default every
 * order uses (without one, orders fail with `BusinessLocationRequiredError`, 1073).
 */
export async function setUpMerchant(client: DeliveryClient, name = 'Nile Shop'): Promise<{ businessId: string }> {
  const business = await client.businesses.create({ name, salesChannel: 'FACEBOOK_SELLER', website: 'https://nile.example' });
  const warehouse = await client.lookup.resolveAddress({ city: 'Cairo', district: 'Makram Ebeid', firstLine: '5 Makram Ebeid Street', for: 'pickupAddress' });
  await client.businesses.updatePickupLocations(business._id, [
    { locationName: 'Warehouse', districtId: warehouse.districtId, firstLine: warehouse.firstLine },
  ]);
  return { businessId: business._id };
}
