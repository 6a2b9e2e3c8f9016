/** Types of bundle-size.mjs, for test/bench/bundle-size.test.ts. */
export declare const KB: number;
export declare const BUDGETS: { readonly main: number; readonly webhooks: number };

export type BundleKind = 'main' | 'webhooks' | 'ky';

export interface BundleMeasurement {
  kind: BundleKind;
  /** Minified bytes. */
  bytes: number;
  /** Minified bytes after gzip level 9. */
  gzipBytes: number;
  /** Budget in gzip bytes; undefined for `ky`. */
  budget: number | undefined;
  /** Every input file esbuild pulled in. */
  inputs: string[];
  /** Inputs from msw or the sandbox (`testing`); must be empty. */
  forbiddenInputs: string[];
  /** Minified bytes each input kept after tree-shaking (0 when shaken out entirely). */
  bytesByInput: Record<string, number>;
  /** The minified output. */
  text: string;
}

export declare function measureBundle(kind: BundleKind, path: string): Promise<BundleMeasurement>;
export declare function bytesBySource(bytesByInput: Record<string, number>): Array<[string, number]>;
