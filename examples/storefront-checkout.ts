// A checkout step, browser-safe (only `delivery-sdk` and fetch, no Node built-ins): the customer's
// form → an address from the names they typed (English or Arabic) → a delivery, with every typed
// error turned into a message for the customer and the field to highlight.
//
// Where it runs: in an edge function or server route behind your checkout, which holds the API
// key; or in the page itself with a `baseUrl` on your own proxy that adds the key. Never ship the
// API key to browsers.
//
//   npx tsx examples/storefront-checkout.ts       # a few checkouts against an in-process sandbox
import {
  AddressNotServedError,
  AuthenticationError,
  CityNotFoundError,
  CodLimitExceededError,
  ConnectionError,
  type DeliveryClient,
  DeliveryType,
  DistrictNotFoundError,
  isDeliveryError,
  RateLimitError,
  ServerError,
  ValidationError,
  ZoneNotFoundError,
} from 'delivery-sdk';
import { clientFor, type ExampleOptions, printer, setUpMerchant } from './support/merchant.js';

/** What the customer filled in. */
export interface CheckoutForm {
  /** The shop's order id, echoed back in webhooks. */
  readonly orderId: string;
  readonly fullName: string;
  readonly phone: string;
  readonly city: string;
  readonly district: string;
  readonly street: string;
  readonly landmark?: string | undefined;
  readonly cartTotal: number;
  readonly payment: 'cash' | 'card';
}

export type CheckoutResult =
  | { readonly ok: true; readonly trackingNumber: string }
  | { readonly ok: false; readonly message: string; readonly field?: keyof CheckoutForm | undefined };

/** Egyptian mobile numbers, as customers type them: 01xxxxxxxxx or +201xxxxxxxxx. */
const MOBILE = /^(?:\+20|0)1[0125]\d{8}$/;

export async function checkout(client: DeliveryClient, form: CheckoutForm, signal?: AbortSignal): Promise<CheckoutResult> {
  // The shop's own checks first: they need no request.
  const phone = form.phone.replace(/[\s-]/g, '');
  if (!MOBILE.test(phone)) return { ok: false, field: 'phone', message: 'Please enter a mobile number such as 010 1234 5678.' };
  const [firstName = '', ...rest] = form.fullName.trim().split(/\s+/);
  try {
    const dropOffAddress = await client.lookup.resolveAddress(
      { city: form.city, district: form.district, firstLine: form.street, secondLine: form.landmark, for: 'dropOffAddress' },
      { signal },
    );
    const order = await client.deliveries.create(
      {
        type: DeliveryType.Deliver,
        dropOffAddress,
        receiver: { firstName, lastName: rest.join(' ') || firstName, phone },
        cod: form.payment === 'cash' ? form.cartTotal : 0,
        businessReference: form.orderId,
      },
      { signal },
    );
    return { ok: true, trackingNumber: order.trackingNumber };
  } catch (err) {
    return { ok: false, ...messageFor(err, form) };
  }
}

/** Each error the SDK throws at checkout, as something the customer can act on. */
export function messageFor(err: unknown, form: Pick<CheckoutForm, 'city' | 'district'>): { message: string; field?: keyof CheckoutForm } {
  if (err instanceof CityNotFoundError) return { field: 'city', message: `We don't know the city "${form.city}". Please pick it from the list.` };
  if (err instanceof DistrictNotFoundError || err instanceof ZoneNotFoundError) {
    // `candidates` are the places it may have meant, best first: a "did you mean" without parsing text.
    const [best] = err.candidates;
    const didYouMean = best === undefined ? '' : ` Did you mean ${best.name}?`;
    return {
      field: 'district',
      message: `We couldn't find "${form.district}" in ${form.city}.${didYouMean} Please check the spelling or pick it from the list.`,
    };
  }
  if (err instanceof CodLimitExceededError) return { field: 'payment', message: 'Cash on delivery is limited to 30,000 EGP. Please pay by card.' };
  // A real place the service does not deliver to: not the customer's mistake.
  if (err instanceof AddressNotServedError)
    return { field: err.place?.kind === 'city' ? 'city' : 'district', message: `Sorry, we don't deliver to ${err.place?.name ?? 'this address'} yet.` };
  if (err instanceof ValidationError) return { field: 'street', message: 'Please complete your address (street and building).' };
  if (err instanceof RateLimitError || err instanceof ServerError || err instanceof ConnectionError) {
    return { message: 'Our delivery partner is not answering right now. Please try again in a minute; you have not been charged.' };
  }
  // A wrong key or anything else is the shop's to fix, not the customer's: log it, say little.
  if (err instanceof AuthenticationError || isDeliveryError(err)) return { message: 'Checkout is unavailable right now. Please try again later.' };
  throw err;
}

/** Sample checkouts: one that goes through, then each kind of mistake a customer makes. */
export const SAMPLE_FORMS: readonly CheckoutForm[] = [
  {
    orderId: 'WEB-2001',
    fullName: 'Mona Adel',
    phone: '010 1234 5678',
    city: 'الجيزة',
    district: 'الدقي',
    street: '12 Tahrir Street, 3rd floor',
    cartTotal: 640,
    payment: 'cash',
  },
  {
    orderId: 'WEB-2002',
    fullName: 'Karim Nabil',
    phone: '0101234567',
    city: 'Cairo',
    district: 'Zamalek',
    street: '7 Brazil Street',
    cartTotal: 90,
    payment: 'cash',
  },
  {
    orderId: 'WEB-2003',
    fullName: 'Sara Fathy',
    phone: '+201112345678',
    city: 'Giza',
    district: 'Dokky',
    street: '3 Mosadak Street',
    cartTotal: 120,
    payment: 'card',
  },
  {
    orderId: 'WEB-2004',
    fullName: 'Omar Samir',
    phone: '01201234567',
    city: 'Giza',
    district: 'Al Ayyat',
    street: '1 Nile Corniche',
    cartTotal: 300,
    payment: 'cash',
  },
  {
    orderId: 'WEB-2005',
    fullName: 'Laila Hany',
    phone: '01501234567',
    city: 'Alexandria',
    district: 'Smouha',
    street: '3 Victor Emmanuel Square',
    cartTotal: 35_000,
    payment: 'cash',
  },
];

/** Runs the sample checkouts and prints what the customer would see; the results, in order. */
export async function main(options: ExampleOptions): Promise<CheckoutResult[]> {
  const say = printer(options);
  const client = clientFor(options);
  const results: CheckoutResult[] = [];
  for (const form of SAMPLE_FORMS) {
    const result = await checkout(client, form);
    results.push(result);
    say(
      result.ok
        ? `✓ ${form.orderId}: order placed, tracking #${result.trackingNumber}`
        : `✗ ${form.orderId}: ${result.field === undefined ? '' : `[${result.field}] `}${result.message}`,
    );
  }
  return results;
}

// As a script (Node, Deno, Bun): against DELIVERY_BASE_URL when set, else the sandbox in process
// (its `fetch`, no server), as a browser test would use it. Never true in a browser or a bundle.
const runtime = (globalThis as { process?: { argv?: string[]; env?: Record<string, string | undefined> } }).process;
const script = runtime?.argv?.[1]?.replace(/\\/g, '/');
if (script !== undefined && decodeURIComponent(new URL(import.meta.url).pathname).endsWith(script.replace(/^[A-Za-z]:/, ''))) {
  const baseUrl = runtime?.env?.['DELIVERY_BASE_URL'];
  if (baseUrl) {
    await main({ baseUrl, apiKey: runtime?.env?.['DELIVERY_API_KEY'] });
  } else {
    const { createSandbox } = await import('delivery-sdk/testing');
    const sandbox = createSandbox();
    const target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch };
    await setUpMerchant(clientFor(target));
    await main(target);
    await sandbox.close();
  }
}
