/** A first-format address, as the benchmarks, the tests and the README use it. */
export const cairoAddress = () => ({
  city: 'Cairo',
  districtId: 'aiJudRHeOt',
  firstLine: '12 Talaat Harb Street',
  secondLine: 'Next to the Metro station',
  buildingNumber: '12',
  floor: '3',
  apartment: '7',
});

/** The receiver of that address. */
export const receiver = () => ({ firstName: 'Mona', lastName: 'Adel', phone: '01012345678', email: 'mona.adel@example.com' });

/**
 * The realistic order every benchmark sends: a Deliver order with a nested receiver and
 * address, package specs, cash on delivery and 10 "allow to open" image URLs.
 */
export function realisticOrder(address = {}) {
  return {
    type: 10,
    specs: {
      packageType: 'SMALL',
      packageDetails: { description: 'Two cotton shirts and a leather belt', itemsCount: 3 },
    },
    dropOffAddress: { ...cairoAddress(), ...address },
    receiver: receiver(),
    cod: 1250,
    notes: 'Call before arriving, please',
    businessReference: 'SHOP-ORDER-100234',
    allowToOpenPackage: true,
    deliveryImages: [
      {
        type: 'ALLOW_TO_OPEN_THE_PACKAGE',
        images: Array.from({ length: 10 }, (_, i) => `https://cdn.example-shop.com/products/100234/photo-${i + 1}.jpg`),
      },
    ],
  };
}

/** What the echo server answers to every call: the spec's success envelope around a created order. */
export const CREATED_ANSWER = JSON.stringify({
  success: true,
  message: 'Delivery created successfully',
  data: { _id: '65f1c0a2e4b0a1b2c3d4e5f6', trackingNumber: '7234258', state: { code: 10, value: 'Pickup requested' } },
});
