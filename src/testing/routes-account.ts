import { isFilled } from '../internal/guards.js';
import { asciiDigits } from '../schemas/predicates.js';
import { checkPickupLocation } from './addresses.js';
import { pickupLocationRecord } from './routes-pickup-locations.js';
import { SANDBOX_COUNTRY_IDS } from './seed.js';
import type { Account, BusinessRecord, SandboxStore, UserRecord } from './store.js';
import { invalid, isRecord, notFound, ok } from './wire.js';

const COUNTRIES: readonly string[] = Object.values(SANDBOX_COUNTRY_IDS);

function requireString(body: Record<string, unknown>, key: string, at = key): string {
  const value = body[key];
  if (!isFilled(value)) throw invalid(`${at} is required`);
  return value;
}

const userView = (user: UserRecord) => ({
  _id: user._id,
  email: user.email,
  profile: user.profile,
  countryId: user.countryId,
  phoneVerified: user.phoneVerified,
  emailVerified: user.emailVerified,
});

/** POST /users/business/admin: registers the admin and e-mails a confirmation token (`sandbox.lastEmailToken`). */
export function registerAdmin(store: SandboxStore, body: unknown): Response {
  if (!isRecord(body)) throw invalid('The body must be a JSON object');
  const email = requireString(body, 'email');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw invalid('email is not a valid e-mail address');
  requireString(body, 'password');
  const profile = body['profile'];
  if (!isRecord(profile)) throw invalid('profile is required');
  const firstName = requireString(profile, 'firstName', 'profile.firstName');
  const lastName = requireString(profile, 'lastName', 'profile.lastName');
  // Phones are kept with ASCII digits, so `٠١٠...` and `010...` are one phone.
  const phone = asciiDigits(requireString(profile, 'phone', 'profile.phone'));
  const countryId = requireString(body, 'countryId');
  if (!COUNTRIES.includes(countryId)) throw invalid(`countryId '${countryId}' is not a supported country`);
  const heard = body['heardAboutUsFrom'];
  if (heard !== undefined && typeof heard !== 'string') throw invalid('heardAboutUsFrom must be a string');
  const key = email.toLowerCase();
  if (store.users.has(key)) throw invalid(`A business admin with e-mail ${email} is already registered`);
  const user: UserRecord = {
    _id: store.nextId(),
    email,
    profile: { firstName, lastName, phone },
    countryId,
    heardAboutUsFrom: heard,
    phoneVerified: false,
    emailVerified: false,
  };
  store.users.set(key, user);
  store.emailTokens.set(key, `mail-${store.nextCode()}-${user._id.slice(-6)}`);
  return ok(userView(user), 201, 'User registered');
}

/** POST /users/business-admin/phone/verify: "sends" a one-time code (`sandbox.lastOtp`). */
export function verifyPhone(store: SandboxStore, body: unknown): Response {
  if (!isRecord(body)) throw invalid('The body must be a JSON object');
  const phone = asciiDigits(requireString(body, 'phone'));
  if (store.userByPhone(phone) === undefined) throw invalid(`No business admin is registered with phone ${phone}`);
  store.otps.set(phone, store.nextCode());
  return ok({ phone, codeSent: true }, 200, 'Code sent');
}

/** POST /users/business-admin/phone/confirm: the code is single-use. */
export function confirmPhone(store: SandboxStore, body: unknown): Response {
  if (!isRecord(body)) throw invalid('The body must be a JSON object');
  const phone = asciiDigits(requireString(body, 'phone'));
  const token = requireString(body, 'token');
  const user = store.userByPhone(phone);
  if (user === undefined || store.otps.get(phone) !== token) throw invalid('The code is wrong or has expired');
  store.otps.delete(phone);
  user.phoneVerified = true;
  return ok({ phone, phoneVerified: true }, 200, 'Phone confirmed');
}

/** POST /users/mail/confirm. */
export function confirmEmail(store: SandboxStore, body: unknown): Response {
  if (!isRecord(body)) throw invalid('The body must be a JSON object');
  const token = requireString(body, 'token');
  for (const [email, known] of store.emailTokens) {
    const user = store.users.get(email);
    if (known === token && user !== undefined) {
      user.emailVerified = true;
      return ok({ emailVerified: true }, 200, 'E-mail confirmed');
    }
  }
  throw invalid('The e-mail token is wrong or has expired');
}

/** A new business of the account, from a checked registration input; orders go to the latest one. */
export function addBusiness(account: Account, input: Readonly<Record<string, unknown>> & { readonly name: string }): BusinessRecord {
  const business: BusinessRecord = {
    _id: account.nextId(),
    name: input.name,
    autoCreatePickups: input['autoCreatePickups'] === true,
    input,
    pickupLocations: [],
  };
  account.businesses.push(business);
  return business;
}

/** POST /businesses: basic (salesChannel a string) or marketplace (`autoCreatePickups: true`, salesChannel an array). */
export function createBusiness(account: Account, body: unknown): Response {
  if (!isRecord(body)) throw invalid('The body must be a JSON object');
  const name = requireString(body, 'name');
  const marketplace = body['autoCreatePickups'] === true;
  if (body['autoCreatePickups'] !== undefined && typeof body['autoCreatePickups'] !== 'boolean') throw invalid('autoCreatePickups must be a boolean');
  const channel = body['salesChannel'];
  if (marketplace) {
    if (channel !== undefined && (!Array.isArray(channel) || !channel.every((c) => typeof c === 'string')))
      throw invalid('salesChannel must be an array of strings in the marketplace flow');
  } else if (channel !== undefined && typeof channel !== 'string') {
    throw invalid('salesChannel must be a string in the basic flow');
  }
  const services = body['interestedInServices'];
  if (services !== undefined && (!Array.isArray(services) || !services.every((s) => typeof s === 'string')))
    throw invalid('interestedInServices must be an array of strings');
  for (const key of ['website', 'industry', 'monthlyShipmentVolume']) {
    if (body[key] !== undefined && typeof body[key] !== 'string') throw invalid(`${key} must be a string`);
  }
  const business = addBusiness(account, { ...body, name });
  return ok({ ...body, _id: business._id, name, autoCreatePickups: marketplace, pickupLocations: [] }, 201, 'Business created');
}

const businessView = (business: BusinessRecord) => ({ _id: business._id, name: business.name, pickupLocations: business.pickupLocations });

/** PUT /businesses/<id> `{ pickupAddress: [...] }`: adds locations; the first ever is the default. */
export function updatePickupLocations(account: Account, businessId: string, body: unknown): Response {
  // Another account's business is not found, as an unknown one: keys never see each other's records.
  const business = account.businesses.find((b) => b._id === businessId);
  if (business === undefined) throw notFound(`Business ${businessId} Not Found`);
  if (!isRecord(body)) throw invalid('The body must be a JSON object');
  const entries = body['pickupAddress'];
  if (!Array.isArray(entries) || entries.length === 0) throw invalid('pickupAddress must be a non-empty array of pickup locations');
  const checked = entries.map((entry: unknown, i) => checkPickupLocation(entry, `pickupAddress[${i}]`));
  for (const { district, entry } of checked) business.pickupLocations.push(pickupLocationRecord(account, business, district, entry));
  return ok(businessView(business), 200, 'Business updated');
}
