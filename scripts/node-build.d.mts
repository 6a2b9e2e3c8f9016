/** Types of node-build.mjs, for the tests and the bench. */
/** What the first create runs beyond the main entry, by source file: merged into the main entry's file. */
export declare const FIRST_CALL: readonly string[];
/** Builds `dir`/node/ from the ESM files of `dir`; resolves to that directory. */
export declare function buildForNode(options: { dir: string; entries: readonly string[]; mainEntry?: string; sourceRoot?: string }): Promise<string>;
/** The entries of the Node build named by package.json's exports. */
export declare function nodeEntries(manifest: { exports: Record<string, unknown> }): string[];
