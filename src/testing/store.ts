import type { WebhookOrderType } from '../catalogue/order-types.js';
import { mulberry32 } from './random.js';

export interface UserRecord {
  readonly _id: string;
  readonly email: string;
  readonly profile: { readonly firstName: string; readonly lastName: string; readonly phone: string };
  readonly countryId: string;
  readonly heardAboutUsFrom: string | undefined;
  phoneVerified: boolean;
  emailVerified: boolean;
}

export interface PickupLocationRecord {
  readonly _id: string;
  locationName: string;
  isDefault: boolean;
  address: Readonly<Record<string, unknown>>;
  /** Who the courier meets there, when the location was given one. */
  contactPerson: Readonly<Record<string, unknown>> | undefined;
}

export interface BusinessRecord {
  readonly _id: string;
  readonly name: string;
  readonly autoCreatePickups: boolean;
  /** The registration input, echoed back. */
  readonly input: Readonly<Record<string, unknown>>;
  readonly pickupLocations: PickupLocationRecord[];
}

export interface FulfillmentItem {
  readonly sku: string;
  readonly quantity: number;
  readonly name?: string;
}

/** Which way an order is travelling: to the customer (or collecting from them), or back. */
export type Leg = 'forward' | 'return';

/** One state an order reached, as its webhook reports it. */
export interface StateEvent {
  /** The state code reached (see `DeliveryState`). */
  readonly state: number;
  /** The type the webhook carried (an order being returned reads `RTO`). */
  readonly type: WebhookOrderType;
  /** When the state was reached, epoch milliseconds of the sandbox clock. */
  readonly timeStamp: number;
  /** Delivery (or pickup) attempts made so far. */
  readonly numberOfAttempts: number;
  /** Only in Exception (47): the exception code. */
  readonly exceptionCode?: number;
  /** Only in Exception (47): the reason text. */
  readonly exceptionReason?: string;
}

/** The flow family an order follows (fulfillment returns differ from ordinary CRPs: they end in stock). */
export type FlowKind = 'SEND' | 'CASH_COLLECTION' | 'EXCHANGE' | 'CUSTOMER_RETURN_PICKUP' | 'FXF_SEND' | 'FXF_CUSTOMER_RETURN_PICKUP';

export interface OrderRecord {
  readonly _id: string;
  readonly trackingNumber: string;
  /** The `type` as created: a numeric DeliveryType or a FulfillmentType string. */
  readonly type: number | string;
  readonly kind: FlowKind;
  readonly businessId: string;
  /** The {@link Account} the order belongs to (its `id`). */
  readonly merchantId: string;
  readonly createdAt: number;
  readonly deliveryPromiseDate: string;
  /** The request body as received (after bulky merging), with later changes (`PUT /deliveries/business/{id}`) applied. */
  request: Readonly<Record<string, unknown>>;
  cod: number | undefined;
  businessReference: string | undefined;
  readonly webhookUrl: string | undefined;
  readonly webhookCustomHeaders: Readonly<Record<string, string>> | undefined;
  readonly fulfillmentItems: readonly FulfillmentItem[] | undefined;
  webhookType: WebhookOrderType;
  state: number;
  leg: Leg;
  /** Attempts (courier out to the customer or the business) in the current leg. */
  attempts: number;
  /** Failed attempts (exceptions) in the current leg. */
  failures: number;
  /** The state to go back to after On hold or Investigation. */
  resumeState: number | undefined;
  readonly history: StateEvent[];
}

/** A pickup request (`POST /pickups`), kept per business. */
export interface PickupRecord {
  readonly _id: string;
  readonly puid: number;
  readonly businessId: string;
  state: string;
  scheduledDate: string;
  scheduledTimeSlot: string;
  businessLocationId: string;
  contactPerson: Readonly<Record<string, unknown>>;
  /** Every other field as sent (notes, numberOfParcels, ...). */
  extra: Readonly<Record<string, unknown>>;
  readonly createdAt: number;
}

/** The account-level webhook set in the dashboard (spec, Authentication 3). */
export interface AccountWebhook {
  readonly url: string;
  readonly headerName?: string;
  readonly headerValue?: string;
}

/**
 * One merchant: an API key and what the API keeps for it (businesses, their pickup locations,
 * orders, pickups, the account webhook, the subscription). A request sees only the account of its
 * key: no route reads another account's records, so keys never see each other's data. Ids and
 * tracking numbers come from the sandbox's one sequence, so they stay unique across accounts.
 */
export class Account {
  readonly businesses: BusinessRecord[] = [];
  /** This account's orders by tracking number, oldest first. */
  readonly orders = new Map<string, OrderRecord>();
  readonly pickups = new Map<string, PickupRecord>();
  accountWebhook: AccountWebhook | undefined;
  /** Whether the account's bundle subscription is active; without it, creates answer 8000002. */
  subscriptionActive = true;

  constructor(
    private readonly store: SandboxStore,
    /** `'default'` for the sandbox's own key, `'merchant-1'`, `'merchant-2'`, ... for those `createMerchant` made. */
    readonly id: string,
    readonly apiKey: string,
  ) {}

  nextId(): string {
    return this.store.nextId();
  }

  nextTrackingNumber(): string {
    return this.store.nextTrackingNumber();
  }

  /** A pickup's public number, unique in the sandbox. */
  nextPuid(): number {
    return this.store.nextPuid();
  }

  /**
   * The orders by `_id`, by `uniqueBusinessReference`, by `businessReference` and by the receiver's
   * phone: what every create checks and every search of an import asks, answered without reading
   * every order (a 200,000-row import took 752 s, against 3.2 s for 20,000).
   */
  readonly #byId = new Map<string, OrderRecord>();
  readonly #byUniqueReference = new Map<string, OrderRecord>();
  readonly #byReference = new Map<string, OrderRecord[]>();
  readonly #byPhone = new Map<string, OrderRecord[]>();

  /** Files a new order in this account, and in the sandbox's index by tracking number. */
  addOrder(order: OrderRecord): void {
    this.orders.set(order.trackingNumber, order);
    this.store.orders.set(order.trackingNumber, order);
    this.#byId.set(order._id, order);
    const unique = order.request['uniqueBusinessReference'];
    if (typeof unique === 'string') this.#byUniqueReference.set(unique, order);
    this.#index(order, 1);
  }

  /** The order with this `_id`. */
  orderById(id: string): OrderRecord | undefined {
    return this.#byId.get(id);
  }

  /** The order created with this `uniqueBusinessReference` (the field cannot be changed). */
  orderByUniqueReference(reference: string): OrderRecord | undefined {
    return this.#byUniqueReference.get(reference);
  }

  /** The orders with this `businessReference`, or whose receiver has this phone, oldest first. */
  ordersBy(field: 'businessReference' | 'phone', value: string): readonly OrderRecord[] {
    return (field === 'phone' ? this.#byPhone : this.#byReference).get(value) ?? [];
  }

  /** Changes `order` by `change` (its request, its reference), its index entries following. */
  change(order: OrderRecord, change: () => void): void {
    this.#index(order, -1);
    change();
    this.#index(order, 1);
  }

  /** Adds `order` to (`1`) or takes it out of (`-1`) the indexes by reference and phone. */
  #index(order: OrderRecord, direction: 1 | -1): void {
    const receiver = order.request['receiver'];
    const phone = typeof receiver === 'object' && receiver !== null ? (receiver as Record<string, unknown>)['phone'] : undefined;
    for (const [index, key] of [
      [this.#byReference, order.businessReference],
      [this.#byPhone, phone],
    ] as const) {
      if (typeof key !== 'string') continue;
      const orders = index.get(key) ?? [];
      if (direction === 1) orders.push(order);
      else orders.splice(orders.indexOf(order), 1);
      if (orders.length === 0) index.delete(key);
      else index.set(key, orders);
    }
  }

  /** The business orders belong to: the one created last. */
  currentBusiness(): BusinessRecord | undefined {
    return this.businesses[this.businesses.length - 1];
  }
}

/** Everything the sandbox remembers: the public registrations, and one {@link Account} per API key. */
export class SandboxStore {
  readonly users = new Map<string, UserRecord>();
  readonly otps = new Map<string, string>();
  readonly emailTokens = new Map<string, string>();
  /** Every order of every account by tracking number, oldest first: the state engine's and the test's view. */
  readonly orders = new Map<string, OrderRecord>();
  private readonly accounts = new Map<string, Account>();
  private idCounter = 0;
  private trackingCounter = 0;
  private puidCounter = 0;
  private readonly random: () => number;

  constructor(seed: number) {
    this.random = mulberry32(seed);
  }

  /** Opens an account for `apiKey` (the caller checked that no account has it). */
  addAccount(id: string, apiKey: string): Account {
    const account = new Account(this, id, apiKey);
    this.accounts.set(apiKey, account);
    return account;
  }

  /** Every account, the default first, in the order they were opened. */
  allAccounts(): Account[] {
    return [...this.accounts.values()];
  }

  /** The account whose key this is, if any. */
  accountByKey(apiKey: string): Account | undefined {
    return this.accounts.get(apiKey);
  }

  /** The account an order belongs to. */
  accountOf(order: OrderRecord): Account | undefined {
    for (const account of this.accounts.values()) if (account.id === order.merchantId) return account;
    return undefined;
  }

  /** A 24-hex id shaped like the service's (Mongo-style); sequential, so runs repeat. */
  nextId(): string {
    this.idCounter += 1;
    return `5b${this.idCounter.toString(16).padStart(22, '0')}`;
  }

  nextTrackingNumber(): string {
    this.trackingCounter += 1;
    return String(70_000_000 + this.trackingCounter);
  }

  nextPuid(): number {
    this.puidCounter += 1;
    return 100_000 + this.puidCounter;
  }

  /** A six-digit one-time code drawn from the seeded PRNG. */
  nextCode(): string {
    return String(Math.floor(this.random() * 1_000_000)).padStart(6, '0');
  }

  userByPhone(phone: string): UserRecord | undefined {
    for (const user of this.users.values()) if (user.profile.phone === phone) return user;
    return undefined;
  }
}
