import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { validateBusiness, validateConfirmEmail, validateConfirmPhone, validateRegisterBusinessAdmin, validateVerifyPhone } from '../../src/validation.js';
import { pathsOf, thrownBy } from '../support/orders.js';

const registration = () => ({
  email: 'owner@shop.example',
  password: 's3cret!',
  profile: { firstName: 'Mona', lastName: 'Adel', phone: '+201001234567' },
  heardAboutUsFrom: 'FACEBOOK',
  countryId: '60e4482c7cb7d4bc4849c4d5',
});

describe('business admin registration', () => {
  it('is accepted as written', () => {
    expect(validateRegisterBusinessAdmin(registration())).toStrictEqual(registration());
  });

  it('lists every missing or empty field with its path', () => {
    const error = thrownBy(() => validateRegisterBusinessAdmin({ email: 'owner@shop.example', password: '', profile: { firstName: 'Mona' } }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toMatch(/^Invalid business admin registration: /);
    expect(pathsOf(error)).toEqual(['password', 'profile.lastName', 'profile.phone', 'countryId']);
  });

  it('needs an e-mail address', () => {
    for (const email of ['owner', 'owner@', '@shop.example', 'owner@shop', 'own er@shop.example', 'a@b@shop.example', 'owner@shop.']) {
      expect(thrownBy(() => validateRegisterBusinessAdmin({ ...registration(), email })).issues, email).toEqual([
        { path: ['email'], message: 'is not an e-mail address' },
      ]);
    }
  });
});

describe('a password or a code of the wrong type', () => {
  it('is refused without being shown: it may be a credential', () => {
    const refusals = [
      thrownBy(() => validateRegisterBusinessAdmin({ ...registration(), password: 73915820 })),
      thrownBy(() => validateConfirmPhone({ phone: '+201001234567', token: 73915820 })),
      thrownBy(() => validateConfirmEmail({ token: 73915820 })),
    ];
    for (const error of refusals) {
      expect(error.issues).toEqual([{ path: [expect.any(String)], message: 'expected a string (not shown: it may be a credential)' }]);
      expect(error.message).not.toContain('73915820');
    }
  });
});

describe('phone and e-mail confirmation', () => {
  it('take the phone, the code, the token', () => {
    expect(validateVerifyPhone({ phone: '+201001234567' })).toStrictEqual({ phone: '+201001234567' });
    expect(validateConfirmPhone({ phone: '+201001234567', token: '123456' })).toStrictEqual({ phone: '+201001234567', token: '123456' });
    expect(validateConfirmEmail({ token: 'mail-token' })).toStrictEqual({ token: 'mail-token' });
  });

  it('refuse missing, empty or non-string values', () => {
    expect(pathsOf(thrownBy(() => validateVerifyPhone({})))).toEqual(['phone']);
    expect(pathsOf(thrownBy(() => validateConfirmPhone({ phone: '+201001234567', token: 123456 })))).toEqual(['token']);
    expect(pathsOf(thrownBy(() => validateConfirmEmail({ token: '  ' })))).toEqual(['token']);
  });
});

describe('business creation', () => {
  it('basic flow: salesChannel is one string', () => {
    const basic = {
      name: 'My Shop',
      salesChannel: 'FACEBOOK_SELLER',
      website: 'https://shop.example',
      industry: 'Fashion',
      interestedInServices: ['SEND', 'CASH_COLLECTION'],
    };
    expect(validateBusiness(basic)).toStrictEqual(basic);
    expect(pathsOf(thrownBy(() => validateBusiness({ ...basic, salesChannel: ['FACEBOOK_SELLER'] })))).toEqual(['salesChannel']);
  });

  it('marketplace flow (autoCreatePickups: true): salesChannel is an array', () => {
    const marketplace = { name: 'My Shop', industry: 'Fashion', monthlyShipmentVolume: '100-500', salesChannel: ['FACEBOOK_SELLER'], autoCreatePickups: true };
    expect(validateBusiness(marketplace)).toStrictEqual(marketplace);
    expect(pathsOf(thrownBy(() => validateBusiness({ ...marketplace, salesChannel: 'FACEBOOK_SELLER' })))).toEqual(['salesChannel']);
  });

  it('needs a name, and autoCreatePickups as a boolean', () => {
    const error = thrownBy(() => validateBusiness({ autoCreatePickups: 'true' }));
    expect(error.message).toMatch(/^Invalid business: /);
    expect(pathsOf(error)).toEqual(['name', 'autoCreatePickups']);
  });
});
