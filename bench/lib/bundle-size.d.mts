/** Types of bundle-size.mjs, for test/bench/bundle-size.test.ts. */
export declare const KB: number;
export interface PageBudget {
  /** The page and its static imports. */
  readonly atOnce?: number;
  /** That and every chunk loaded until the page's first call has answered. */
  readonly firstCall?: number;
  /** Every chunk the page can load. */
  readonly allChunks?: number;
}
export declare const BUDGETS: {
  readonly pages: { readonly main: PageBudget; readonly cities: PageBudget; readonly functions: PageBudget; readonly webhooks: PageBudget };
  readonly perCall: number;
  readonly validationOn: number;
  readonly bulk: number;
  readonly bulkAim: number;
  readonly streamRss: number;
  readonly firstCall: number;
  readonly importAlone: { readonly main: number; readonly functions: number };
  readonly heapOverKy: number;
};
/** Code no page may carry: what it is, and the files that are it. */
export declare const FORBIDDEN_SOURCES: ReadonlyArray<{ readonly name: string; readonly files: RegExp }>;
/** The name of the forbidden source `file` is of, if any. */
export declare function forbiddenSourceOf(file: string): string | undefined;
export declare const ENTRIES: {
  readonly main: string;
  readonly functions: string;
  readonly validation: string;
  readonly webhooks: string;
  readonly webhooksNode: string;
  readonly testing: string;
};
/** The order the create pages send. */
export declare const PAGE_ORDER: {
  type: 10;
  dropOffAddress: { city: string; districtId: string; firstLine: string };
  receiver: { firstName: string; lastName: string; phone: string };
  cod: number;
};

export type BundleKind = 'main' | 'cities' | 'functions' | 'validation' | 'webhooks' | 'sandbox' | 'ky';

/** One figure of a page: a set of its built files, gzipped together. */
export interface PageFigure {
  /** The files, by name in the page's build, in the build's order. */
  files: string[];
  /** Minified bytes. */
  bytes: number;
  /** The files concatenated and gzipped at level 9. */
  gzipBytes: number;
  /** Each file gzipped on its own, summed: what a browser fetching each chunk gets. */
  eachGzipBytes: number;
  /** Minified bytes each input file kept after tree-shaking (0 when shaken out entirely). */
  bytesByInput: Record<string, number>;
  /** The minified code. */
  text: string;
}

export interface BundleMeasurement {
  kind: BundleKind;
  /** The page's own output (`stdin.js`) and what it imports statically. */
  atOnce: PageFigure;
  /** That and every chunk the page's run loaded until its first call had answered. */
  firstCall: PageFigure;
  /** Every chunk the page can load, through static imports and `import()`. */
  allChunks: PageFigure;
  /** What the page's run sent, `METHOD /path` each. */
  requests: string[];
  budget: { atOnce?: number; firstCall?: number; allChunks?: number };
  /** Inputs of any chunk the page can load that carry code of FORBIDDEN_SOURCES, `name: input` each; must be empty. */
  forbiddenInputs: string[];
}

export declare function buildLikeDist(
  srcDir: string,
  outdir: string,
): Promise<{ main: string; functions: string; validation: string; webhooks: string; webhooksNode: string; testing: string }>;
export declare function measureBundle(kind: BundleKind, path: string): Promise<BundleMeasurement>;
export declare function bytesBySource(bytesByInput: Record<string, number>): Array<[string, number]>;
