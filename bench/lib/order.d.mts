/** Types of order.mjs, for the tests that share its address (test/support/orders.ts). */
export declare const cairoAddress: () => {
  city: string;
  districtId: string;
  firstLine: string;
  secondLine: string;
  buildingNumber: string;
  floor: string;
  apartment: string;
};
export declare const receiver: () => { firstName: string; lastName: string; phone: string; email: string };
export declare function realisticOrder(address?: Record<string, unknown>): Record<string, unknown>;
export declare const CREATED_ANSWER: string;
