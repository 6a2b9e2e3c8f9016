/** Sets up a fresh sandbox account for the bulk benchmark, through the API as a merchant would. */

const EGYPT = '60e4482c7cb7d4bc4849c4d5';

const listOf = (data) => (Array.isArray(data) ? data : Array.isArray(data?.list) ? data.list : []);

/**
 * Gives the sandbox account what orders need (spec rule 4: a business with a pickup location,
 * else 1073) and returns a drop-off address the sandbox accepts, both from its own lookup data.
 */
export async function prepareAccount(client) {
  const cities = listOf(await client.request({ method: 'GET', path: '/cities', query: { countryId: EGYPT } }));
  const city = cities.find((candidate) => candidate.name === 'Cairo') ?? cities[0];
  if (city === undefined) throw new Error('the sandbox lists no city');
  const districts = listOf(await client.request({ method: 'GET', path: `/cities/${encodeURIComponent(city._id)}/districts` }));
  const pickup = districts.find((candidate) => candidate.pickupAvailability !== false);
  const dropOff = districts.find((candidate) => candidate.dropOffAvailability !== false);
  if (pickup === undefined || dropOff === undefined) throw new Error(`the sandbox has no usable district in ${city.name}`);

  const business = await client.request({
    method: 'POST',
    path: '/businesses',
    body: { name: 'Bench Shop', salesChannel: 'FACEBOOK_SELLER', website: 'https://shop.example.com', industry: 'Fashion', interestedInServices: ['Deliver'] },
  });
  await client.request({
    method: 'PUT',
    path: `/businesses/${encodeURIComponent(business._id)}`,
    body: { pickupAddress: [{ locationName: 'Warehouse', districtId: pickup.districtId, firstLine: '5 Makram Ebeid Street' }] },
  });
  return { city: city.name, districtId: dropOff.districtId };
}
