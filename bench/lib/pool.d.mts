/** Types of pool.mjs, for the tests that share its pool (test/core/transport-under-faults.test.ts). */
export declare function runPool(count: number, concurrency: number, task: (index: number) => Promise<unknown>): Promise<void>;
