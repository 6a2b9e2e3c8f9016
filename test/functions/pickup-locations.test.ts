// Several warehouses (issue 32): pickup locations added, read, changed, made the default and
// deleted, in the sandbox and against the answers live-service.md quotes ("A merchant's month").
import { describe, expect, it } from 'vitest';
import { NotFoundError, PickupLocationInUseError, ValidationError } from '../../src/index.js';
import { clientOnFetch } from '../support/fake-service.js';
import { DOKKI, sandboxWithAccount } from '../support/sandbox.js';

const gizaWarehouse = {
  locationName: 'Giza warehouse',
  districtId: DOKKI,
  firstLine: '12 Tahrir Street',
  contactPerson: { name: 'Karim', phone: '٠١٠١٢٣٤٥٦٧٨' },
};

describe('pickup locations in the sandbox', () => {
  it('adds a second location that is not the default, makes it the default, and changes it', async () => {
    const { client, locationId: first } = await sandboxWithAccount();
    const added = await client.pickupLocations.create(gizaWarehouse);
    expect(added.isDefault).toBe(false);
    expect(added.contactPerson?.phone).toBe('01012345678');
    expect((await client.pickupLocations.list()).map((location) => [location._id, location.isDefault])).toEqual([
      [first, true],
      [added._id, false],
    ]);

    const made = await client.pickupLocations.setDefault(added._id);
    expect(made).toMatchObject({ _id: added._id, isDefault: true });
    expect((await client.pickupLocations.get(first)).isDefault).toBe(false);

    const changed = await client.pickupLocations.update(added._id, { locationName: 'Dokki warehouse' });
    expect(changed).toEqual({ _id: added._id, isDefault: true });
    expect((await client.pickupLocations.get(added._id)).locationName).toBe('Dokki warehouse');
  });

  it('refuses to delete a location an upcoming pickup is linked to, with a typed error, and deletes it once the pickup is gone', async () => {
    const { client } = await sandboxWithAccount();
    const location = await client.pickupLocations.create(gizaWarehouse);
    const [date] = await client.pickups.availableDates({ days: 7 });
    const pickup = await client.pickups.create({
      businessLocationId: location._id,
      scheduledDate: date!,
      scheduledTimeSlot: '10:00 to 13:00',
      contactPerson: { name: 'Karim', phone: '01012345678' },
    });
    const refused = await client.pickupLocations.delete(location._id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PickupLocationInUseError);
    expect((refused as PickupLocationInUseError).status).toBe(400);
    expect((refused as PickupLocationInUseError).mayExist).toBe(false);
    expect((await client.pickupLocations.get(location._id))._id).toBe(location._id);

    await client.pickups.delete(pickup._id);
    await expect(client.pickupLocations.delete(location._id)).resolves.toBeUndefined();
    await expect(client.pickupLocations.get(location._id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('the next location becomes the default when the default is deleted', async () => {
    const { client, locationId: first } = await sandboxWithAccount();
    const second = await client.pickupLocations.create(gizaWarehouse);
    await client.pickupLocations.delete(first);
    expect(await client.pickupLocations.list()).toEqual([expect.objectContaining({ _id: second._id, isDefault: true })]);
  });
});

describe('what is checked before sending', () => {
  /** A client whose fetch must never be called. */
  const silentClient = () => clientOnFetch(() => Response.json({ success: true, data: {} }));

  it('a location without districtId or with a short firstLine, naming each field', async () => {
    const { client, sent } = silentClient();
    const error = await client.pickupLocations.create({ firstLine: '5 M' } as never).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path.join('.')).sort()).toEqual(['districtId', 'firstLine']);
    expect(sent).toEqual([]);
  });

  it('a contact phone that is not a phone, and changes that name nothing', async () => {
    const { client, sent } = silentClient();
    await expect(client.pickupLocations.update('loc-1', { contactPerson: { name: 'Karim', phone: 'call me' } })).rejects.toThrow(/contactPerson\.phone/);
    await expect(client.pickupLocations.update('loc-1', {})).rejects.toThrow(/names nothing to change/);
    await expect(client.pickupLocations.delete('')).rejects.toBeInstanceOf(ValidationError);
    expect(sent).toEqual([]);
  });
});

describe("the service's answers (live-service.md)", () => {
  function clientAnswering(status: number, body: unknown) {
    const { client, sent } = clientOnFetch(() => Response.json(body, { status }));
    return { client, requests: () => sent.map(({ method, url }) => ({ method, url })) };
  }

  it('update reads `{ data: { isDefault } }` and delete `data: null`', async () => {
    const updated = clientAnswering(200, { success: true, message: 'pickup location updated successfully.', data: { isDefault: false } });
    expect(await updated.client.pickupLocations.update('loc-7', { locationName: 'Nasr City' })).toEqual({ _id: 'loc-7', isDefault: false });
    expect(updated.requests()).toEqual([{ method: 'PUT', url: 'https://api.delivery.test/v2/pickup-locations/loc-7' }]);

    const deleted = clientAnswering(200, { success: true, message: 'pickup location deleted successfully.', data: null });
    await expect(deleted.client.pickupLocations.delete('loc-7')).resolves.toBeUndefined();
    expect(deleted.requests()).toEqual([{ method: 'DELETE', url: 'https://api.delivery.test/v2/pickup-locations/loc-7' }]);
  });

  it('setDefault sends PUT /pickup-locations/{id}/default', async () => {
    const { client, requests } = clientAnswering(200, { success: true, data: { isDefault: true } });
    expect(await client.pickupLocations.setDefault('loc-7')).toEqual({ _id: 'loc-7', isDefault: true });
    expect(requests()).toEqual([{ method: 'PUT', url: 'https://api.delivery.test/v2/pickup-locations/loc-7/default' }]);
  });

  it('a refusal that names no pickup stays an ApiError', async () => {
    const { client } = clientAnswering(400, { success: false, message: 'Invalid location id' });
    const error = await client.pickupLocations.delete('loc-7').catch((failure: unknown) => failure);
    expect(error).not.toBeInstanceOf(PickupLocationInUseError);
  });
});
