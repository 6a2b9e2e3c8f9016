/** Types of bundle-size.mjs, for test/bench/bundle-size.test.ts. */
export declare const KB: number;
export declare const BUDGETS: {
  readonly main: number;
  readonly cities: number;
  readonly allChunks: number;
  readonly functions: number;
  readonly webhooks: number;
};
export declare const ENTRIES: {
  readonly main: string;
  readonly functions: string;
  readonly validation: string;
  readonly webhooks: string;
  readonly webhooksNode: string;
  readonly testing: string;
};

export type BundleKind = 'main' | 'cities' | 'functions' | 'validation' | 'webhooks' | 'sandbox' | 'ky';

export interface BundleMeasurement {
  kind: BundleKind;
  /** Minified bytes. */
  bytes: number;
  /** Minified bytes after gzip level 9, of what the page loads at once (the entry and its static imports). */
  gzipBytes: number;
  /** Gzip bytes of what loads only through `import()`, on demand; 0 when nothing does. */
  lazyGzipBytes: number;
  /** Gzip bytes of every chunk the page can load, at once and on demand, gzipped together. */
  allChunksGzipBytes: number;
  /** The same chunks each gzipped on its own, summed: what a browser fetches. */
  eachChunkGzipBytes: number;
  /** Budget in gzip bytes; undefined for `ky`. */
  budget: number | undefined;
  /** Minified bytes each input file kept after tree-shaking (0 when shaken out entirely). */
  bytesByInput: Record<string, number>;
  /** The same for what loads only through `import()`. */
  lazyBytesByInput: Record<string, number>;
  /** Kept inputs carrying msw or sandbox (`testing`) code; must be empty. */
  forbiddenInputs: string[];
  /** The minified output. */
  text: string;
}

export declare function buildLikeDist(
  srcDir: string,
  outdir: string,
): Promise<{ main: string; functions: string; validation: string; webhooks: string; webhooksNode: string; testing: string }>;
export declare function measureBundle(kind: BundleKind, path: string): Promise<BundleMeasurement>;
export declare function bytesBySource(bytesByInput: Record<string, number>): Array<[string, number]>;
