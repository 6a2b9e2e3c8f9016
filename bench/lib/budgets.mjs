/**
 * Every budget of the benchmarks, in one place: `npm run bench` (bench/lib/report.mjs) judges its
 * figures by these, and test/bench/bundle-size.test.ts holds the pages to the same numbers.
 * Timed budgets are ratios to plain ky measured in the same run
 * (`ky.post(url, { json: order, headers: { authorization: key } }).json()`, ky's defaults), judged
 * on the median over process runs; sizes are bytes after gzip level 9 of the files of a figure
 * gzipped together. Issue 44 set those not marked otherwise.
 */

/** 1 KB = 1,000 bytes throughout: the stricter reading of the budgets. */
export const KB = 1000;

export const BUDGETS = {
  /**
   * Pages as a browser loads them (bench/lib/bundle-size.mjs): `atOnce` the page and its static
   * imports, `firstCall` that and every chunk loaded until the page's first call has answered,
   * `allChunks` every chunk the page can ever load. A page without an entry has no budget there.
   */
  pages: {
    // Every chunk: 55 KB since issue 52, issue 40's guarantees of the fate promise (about 2 KB) included.
    main: { atOnce: 16 * KB, firstCall: 25 * KB, allChunks: 55 * KB },
    cities: { atOnce: 16 * KB, firstCall: 25 * KB, allChunks: 55 * KB },
    // 23 KB when its create has answered since issue 52.
    functions: { atOnce: 16 * KB, firstCall: 23 * KB },
    webhooks: { atOnce: 5 * KB },
  },
  /** `deliveries.create`, validation on, wall time per call, sequentially and at concurrency 50. */
  perCall: 1.0,
  /** The same call with validation on against `validate: false` (issue 31). */
  validationOn: 1.05,
  /** `createBulk` and `streamBulk` (checked) against plain ky posting the same chunks, against the cheap server. */
  bulk: 1.25,
  /** What the bulk work aims at, reported beside the budget. */
  bulkAim: 1.2,
  /** RSS growth while `streamBulk` uploads 100,000 orders from a generator, against plain ky posting the same chunks. */
  streamRss: 1.1,
  /** A fresh process: import the main entry, build a client, one create answered by a loopback server. */
  firstCall: 1.1,
  /** One `await import()` alone in a fresh process, against importing ky (issue 31). */
  importAlone: { main: 1.25, functions: 1.0 },
  /** `heapUsed` after 1,000 calls and gc(), above plain ky's (issue 31). */
  heapOverKy: 3 * 2 ** 20,
};

/**
 * Code no page of the SDK's entries may carry, in any chunk it can load: what it is, and the files
 * that are it (a package's, or the SDK's own sources, found in dist's files through their source
 * maps). One line each: a leaf entry with code of its own adds its line here.
 */
export const FORBIDDEN_SOURCES = [
  { name: 'msw', files: /(?:^|[\\/])node_modules[\\/](?:msw|@mswjs|@bundled-es-modules)[\\/]/ },
  // Before the sandbox's line: its first match names a file. Its UI library and its built files (dist/dashboard/).
  {
    name: 'the sandbox dashboard',
    files: /(?:^|[\\/])(?:node_modules[\\/](?:preact|htm)[\\/]|(?:src|dist)[\\/]testing[\\/]dashboard[\\/]|dist[\\/]dashboard[\\/])/,
  },
  { name: 'the sandbox', files: /(?:^|[\\/])(?:src|dist)[\\/]testing[\\/]/ },
  { name: 'the MCP server', files: /(?:^|[\\/])(?:(?:src|dist)[\\/]mcp[\\/]|node_modules[\\/]@modelcontextprotocol[\\/])/ },
];
