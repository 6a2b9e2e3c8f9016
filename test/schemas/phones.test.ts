// receiver.phone and pickupLocationContact.phone: 8 to 15 digits, an optional leading +, and the
// usual separators. Checked by the SDK before sending and by the sandbox's own validator.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryClient, DeliveryError, type OrderInput, ValidationError } from '../../src/index.js';
import { canonicalPhone, isCanonicalPhone, isPhoneNumber } from '../../src/schemas/predicates.js';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { validateConfirmPhone, validateOrder, validateRegisterBusinessAdmin, validateVerifyPhone } from '../../src/validation.js';
import { thrownBy, validOrders } from '../support/orders.js';
import { sandboxWithAccount } from '../support/sandbox.js';

// Each phone as typed, and as the SDK sends it: digits only, an Egyptian number in its national
// form (docs/assumptions.md, "Phones").
const PHONES: ReadonlyArray<readonly [typed: string, sent: string]> = [
  ['01012345678', '01012345678'], // Egyptian mobile
  ['+201012345678', '01012345678'],
  ['+20 10 1234 5678', '01012345678'],
  ['0020-10-1234-5678', '01012345678'],
  ['201012345678', '01012345678'],
  ['1012345678', '01012345678'], // the leading 0 left out
  ['010-9999-8888', '01099998888'],
  ['0109 999 8888', '01099998888'],
  ['0223456789', '0223456789'], // Cairo landline
  ['(02) 2345-6789', '0223456789'],
  ['+20 2 2345 6789', '0223456789'],
  ['0501234567', '0501234567'], // Saudi mobile
  ['+966501234567', '966501234567'],
  ['+966 50 123 4567', '966501234567'],
  ['00966501234567', '966501234567'],
  ['12345678', '12345678'], // 8 digits
  ['123456789012345', '123456789012345'], // 15 digits
  ['+20 123456', '20123456'], // too short for a national form: its digits
];
const NOT_PHONES = [
  'abc',
  '',
  '   ',
  '1234567',
  '1234567890123456',
  '+20 10x1234567',
  '++201012345678',
  '0101234567+8',
  '0101\t2345678', // a tab is no separator
  '01012345678٪',
  'phone: 01012345678',
  '٠١٢٣٤٥٦',
  '۰۱۰۱۲۳۴۵۶۷۸۹۰۱۲۳۴',
];
// What Egyptian phone keyboards type: Arabic-Indic digits, or their Persian forms, with ASCII ones mixed in.
const EASTERN_PHONES: ReadonlyArray<readonly [typed: string, sent: string]> = [
  ['٠١٠١٢٣٤٥٦٧٨', '01012345678'],
  ['+٢٠ ١٠ ١٢٣٤ ٥٦٧٨', '01012345678'],
  ['۰۱۰۱۲۳۴۵۶۷۸', '01012345678'],
  ['٠١٠-1234-٥٦٧٨', '01012345678'],
];

const withPhone = (phone: string, where: 'receiver' | 'pickupLocationContact' = 'receiver') => ({
  ...validOrders.deliver(),
  [where]: { firstName: 'Mona', phone },
});

describe('the SDK checks phones before sending', () => {
  it.each(PHONES)('%j passes, sent as %j, a form the SDK sends as it is', (typed, sent) => {
    expect(validateOrder(withPhone(typed)).receiver?.phone).toBe(sent);
    expect(validateOrder(withPhone(sent)).receiver?.phone).toBe(sent);
  });

  it.each(NOT_PHONES)('%j is refused, naming the field', (phone) => {
    for (const where of ['receiver', 'pickupLocationContact'] as const) {
      const error = thrownBy(() => validateOrder(withPhone(phone, where)));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.issues).toEqual([{ path: [where, 'phone'], message: expect.stringContaining('8 to 15 digits') }]);
      expect(error.message).toContain(`${where}.phone`);
    }
  });

  it.each(EASTERN_PHONES)('%j (Arabic-Indic or Persian digits) passes, sent as %j', (typed, sent) => {
    expect(validateOrder(withPhone(typed)).receiver?.phone).toBe(sent);
    expect(validateOrder(withPhone(typed, 'pickupLocationContact')).pickupLocationContact?.phone).toBe(sent);
  });

  it('account phones take them too, sent as ASCII digits', () => {
    expect(validateVerifyPhone({ phone: '+٢٠١٠٠١٢٣٤٥٦٧' })).toEqual({ phone: '+201001234567' });
    expect(validateConfirmPhone({ phone: '۰۱۰۰۱۲۳۴۵۶۷', token: '123456' })).toEqual({ phone: '01001234567', token: '123456' });
    const admin = { email: 'a@b.example', password: 'x', countryId: 'eg', profile: { firstName: 'Mona', lastName: 'Adel', phone: '٠١٠٠١٢٣٤٥٦٧' } };
    expect(validateRegisterBusinessAdmin(admin).profile.phone).toBe('01001234567');
  });

  it('a phone given as null or left out is "not given"', () => {
    expect(validateOrder({ ...validOrders.deliver(), receiver: { firstName: 'Mona', phone: null } }).receiver?.phone).toBeNull();
    expect(validateOrder({ ...validOrders.deliver(), receiver: { firstName: 'Mona' } }).receiver).toEqual({ firstName: 'Mona' });
  });
});

describe('the one form a phone is sent in', () => {
  it('is a phone, digits only, and sent as it is: whatever was typed, its form is its own form', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789٠١٢٣ +-.()'.split('')), maxLength: 20 }), (typed) => {
        if (!isPhoneNumber(typed)) return;
        const sent = canonicalPhone(typed);
        expect(sent).toMatch(/^\d{8,15}$/);
        expect(canonicalPhone(sent)).toBe(sent);
        expect(isCanonicalPhone(sent)).toBe(true);
        expect(validateOrder(withPhone(typed)).receiver?.phone).toBe(sent);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the sandbox refuses the same phones on its own', () => {
  let sandbox: Sandbox;
  let client: DeliveryClient;
  beforeAll(async () => {
    ({ sandbox, client } = await sandboxWithAccount());
  });
  afterAll(() => sandbox.close());
  const sandboxOrder = (phone: string) =>
    ({
      ...withPhone(phone),
      dropOffAddress: { city: 'Giza', districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street, 3rd floor' },
    }) as unknown as OrderInput;

  it.each(PHONES)('%j is taken, and stored as %j', async (typed, sent) => {
    const created = await client.deliveries.create(sandboxOrder(typed));
    expect((await client.deliveries.get(created.trackingNumber)).receiver?.phone).toBe(sent);
  });

  it.each(EASTERN_PHONES)('%j is taken, sent unchecked too', async (typed) => {
    await expect(client.deliveries.create(sandboxOrder(typed))).resolves.toMatchObject({ trackingNumber: expect.any(String) });
    await expect(client.deliveries.create(sandboxOrder(typed), { validate: false })).resolves.toMatchObject({ trackingNumber: expect.any(String) });
  });

  it('an admin registered with Arabic-Indic digits verifies with either form', async () => {
    const fresh = createSandbox();
    try {
      const users = new DeliveryClient({ baseUrl: fresh.baseUrl, fetch: fresh.fetch, maxRetries: 0 }).users;
      const profile = { firstName: 'Mona', lastName: 'Adel', phone: '٠١٠٩٨٧٦٥٤٣٢' };
      await users.registerBusinessAdmin({ email: 'mona@shop.example', password: 's3cret!', countryId: '60e4482c7cb7d4bc4849c4d5', profile });
      await users.verifyPhone({ phone: '01098765432' }, { validate: false });
      expect(fresh.lastOtp('٠١٠٩٨٧٦٥٤٣٢')).toBe(fresh.lastOtp('01098765432'));
      await expect(users.confirmPhone({ phone: '۰۱۰۹۸۷۶۵۴۳۲', token: fresh.lastOtp('01098765432') ?? '' }, { validate: false })).resolves.toMatchObject({
        phoneVerified: true,
      });
    } finally {
      await fresh.close();
    }
  });

  it.each(NOT_PHONES)('%j sent unchecked is refused, naming receiver.phone', async (phone) => {
    const error = await client.deliveries.create(sandboxOrder(phone), { validate: false }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as Error).message).toContain('receiver.phone');
  });
});
