/** Types of stats.mjs, for test/bench/report.test.ts. */
export interface Spread {
  min: number;
  median: number;
  max: number;
  runs: number;
}
export declare function quantile(values: number[], q: number): number;
export declare const median: (values: number[]) => number;
export declare function spread(values: number[]): Spread;
export declare function verdictOf(spread: Pick<Spread, 'min' | 'median' | 'max'>, budget: number, options?: { atLeast?: boolean }): 'ok' | 'over' | 'noise';
