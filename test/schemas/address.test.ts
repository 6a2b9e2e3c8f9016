import { describe, expect, it } from 'vitest';
import { AddressLocationRequiredError, ErrorCode, ValidationError } from '../../src/index.js';
import { validateAddress, validatePickupLocations } from '../../src/validation.js';
import { cairoAddress, pathsOf, thrownBy } from '../support/orders.js';

describe('an order address, first format (district by id)', () => {
  it('is accepted as written', () => {
    expect(validateAddress(cairoAddress())).toEqual(cairoAddress());
  });

  it('needs districtId, or districtName with cityId and city (or zoneId), and says so', () => {
    const { districtId: _, ...withoutDistrict } = cairoAddress();
    const error = thrownBy(() => validateAddress(withoutDistrict));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues).toEqual([{ path: ['districtId'], message: 'required, or districtName with cityId and city (or zoneId)' }]);
  });

  it('takes districtId alone as the location: the service asks only for one of city, zoneId, districtId', () => {
    expect(validateAddress({ districtId: 'aiJudRHeOt', firstLine: '12 Talaat Harb Street' })).toEqual({
      districtId: 'aiJudRHeOt',
      firstLine: '12 Talaat Harb Street',
    });
  });
});

describe('an order address, second format (district by name)', () => {
  const byName = () => ({ cityId: 'city-eg-cairo', districtName: 'Zamalek', city: 'Cairo', firstLine: '26 July Street, flat 4' });

  it('is accepted with cityId, districtName and city or zoneId', () => {
    expect(validateAddress(byName())).toEqual(byName());
    const { city: _, ...withZone } = { ...byName(), zoneId: 'zone-eg-cairo-west' };
    expect(validateAddress(withZone)).toEqual(withZone);
  });

  it('needs cityId when districtName is used, and says that city (or zoneId) is needed too: what the service checks', () => {
    const { cityId: _, ...noCity } = byName();
    const error = thrownBy(() => validateAddress(noCity));
    expect(error).toBeInstanceOf(ValidationError);
    const message = 'required with districtName, as is city (or zoneId)';
    expect(error.issues).toEqual([{ path: ['cityId'], message }]);
    expect(error.message).toContain(`cityId: ${message}`);
  });

  it('answers 3009 with none of city, zoneId, districtId (cityId and districtName do not count)', () => {
    const { city: _, ...noLocation } = byName();
    const error = thrownBy(() => validateAddress(noLocation));
    expect(error).toBeInstanceOf(AddressLocationRequiredError);
    expect(error.errorCode).toBe(ErrorCode.AddressLocationRequired);
    expect((error as AddressLocationRequiredError).source).toBe('client');
  });
});

describe('3009: an address without city, zoneId and districtId', () => {
  it('throws AddressLocationRequiredError whose message names the rule and the address', () => {
    const error = thrownBy(() => validateAddress({ firstLine: '12 Talaat Harb Street' }));
    expect(error).toBeInstanceOf(AddressLocationRequiredError);
    expect(error.message).toBe('(input): needs at least one of city, zoneId or districtId (errorCode 3009)');
    expect(error.issues).toEqual([{ path: [], message: 'needs at least one of city, zoneId or districtId', errorCode: 3009 }]);
  });

  it('counts an empty or blank string as missing', () => {
    expect(thrownBy(() => validateAddress({ city: ' ', zoneId: '', firstLine: '12 Talaat Harb Street' }))).toBeInstanceOf(AddressLocationRequiredError);
  });

  it('keeps every other problem in issues', () => {
    const error = thrownBy(() => validateAddress({ firstLine: 'abc', floor: true }));
    expect(error).toBeInstanceOf(AddressLocationRequiredError);
    expect(pathsOf(error).sort()).toEqual(['', 'firstLine', 'floor']);
  });
});

describe('firstLine of an order address', () => {
  it('must be longer than 5 characters: 6 pass, 5 fail', () => {
    expect(validateAddress({ ...cairoAddress(), firstLine: '12 Str' }).firstLine).toBe('12 Str');
    const error = thrownBy(() => validateAddress({ ...cairoAddress(), firstLine: '12 St' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.errorCode).toBeUndefined();
    expect(error.message).toContain('firstLine: must be longer than 5 characters');
  });

  it('does not count surrounding spaces', () => {
    expect(pathsOf(thrownBy(() => validateAddress({ ...cairoAddress(), firstLine: '   12 St    ' })))).toEqual(['firstLine']);
  });

  it('is required', () => {
    const { firstLine: _, ...rest } = cairoAddress();
    expect(thrownBy(() => validateAddress(rest)).issues).toEqual([{ path: ['firstLine'], message: 'required' }]);
  });
});

describe('the other address fields', () => {
  it('are strings (building, floor and apartment numbers too; isWorkAddress a boolean), each wrong one reported with its path', () => {
    const error = thrownBy(() => validateAddress({ ...cairoAddress(), secondLine: 7, buildingNumber: true, floor: {}, isWorkAddress: 'yes' }));
    expect(error.issues).toEqual([
      { path: ['secondLine'], message: 'expected a string, received 7' },
      { path: ['buildingNumber'], message: 'expected a string or a number, received true' },
      { path: ['floor'], message: 'expected a string or a number, received an object' },
      { path: ['isWorkAddress'], message: "expected true or false, received 'yes'" },
    ]);
  });

  it('take numbers for building, floor and apartment, as the service’s PHP and Python SDKs send them, and send them as numbers', () => {
    const address = { ...cairoAddress(), buildingNumber: 12, floor: 0, apartment: 4 };
    expect(validateAddress(address)).toStrictEqual(address);
    expect(pathsOf(thrownBy(() => validateAddress({ ...cairoAddress(), floor: Number.NaN })))).toEqual(['floor']);
  });

  it('take null as "not given", and send it on as given', () => {
    const address = { ...cairoAddress(), secondLine: null, buildingNumber: null, floor: null, apartment: null, isWorkAddress: null, zoneId: null };
    expect(validateAddress(address)).toStrictEqual(address);
    expect(thrownBy(() => validateAddress({ city: null, zoneId: null, districtId: null, firstLine: '12 Talaat Harb Street' }))).toBeInstanceOf(
      AddressLocationRequiredError,
    );
  });

  it('are sent without undefined values, and unknown fields are kept', () => {
    const value = validateAddress({ ...cairoAddress(), floor: undefined, streetCode: 'ST-1' });
    expect(Object.keys(value)).not.toContain('floor');
    expect(value).toMatchObject({ streetCode: 'ST-1' });
  });

  it('refuses what is not an object', () => {
    for (const input of [null, 'Cairo', 42, [cairoAddress()]]) {
      expect(thrownBy(() => validateAddress(input)).issues[0]?.path).toEqual([]);
    }
  });
});

describe('pickup locations of a business update', () => {
  const location = () => ({ locationName: 'Main store', districtId: 'aiJudRHeOt', firstLine: '12 Talaat Harb', buildingNumber: '12' });

  it('are accepted as written', () => {
    expect(validatePickupLocations([location(), { districtId: 'x1', firstLine: 'Tahrir' }])).toEqual([location(), { districtId: 'x1', firstLine: 'Tahrir' }]);
  });

  it('take a firstLine of at least 5 characters: 5 pass, 4 fail', () => {
    expect(validatePickupLocations([{ ...location(), firstLine: '12 St' }])[0]?.firstLine).toBe('12 St');
    const error = thrownBy(() => validatePickupLocations([location(), { ...location(), firstLine: '12 S' }]));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues).toEqual([{ path: [1, 'firstLine'], message: 'must be at least 5 characters' }]);
    expect(error.message).toContain('[1].firstLine: must be at least 5 characters');
  });

  it('need a districtId each', () => {
    const { districtId: _, ...rest } = location();
    expect(pathsOf(thrownBy(() => validatePickupLocations([rest])))).toEqual(['0.districtId']);
  });

  it('are a non-empty array', () => {
    expect(thrownBy(() => validatePickupLocations([])).issues).toEqual([{ path: [], message: 'needs at least 1 item(s)' }]);
    expect(thrownBy(() => validatePickupLocations(location())).issues[0]?.message).toBe('expected an array, received an object');
  });
});
