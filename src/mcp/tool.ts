/** A JSON Schema, as JSON writes it. */
export type JsonSchema = { [keyword: string]: unknown };

/** What a tool's annotations say of it (the MCP tool annotations). */
export interface ToolHints {
  /** Reads only: changes nothing at the service. */
  readonly readOnlyHint: boolean;
  /** Deletes or cancels something (a write only). */
  readonly destructiveHint?: boolean;
  /** Called again with the same arguments, it changes nothing more. */
  readonly idempotentHint: boolean;
  /** Talks to the service (every tool but those that send nothing). */
  readonly openWorldHint: boolean;
}

/**
 * One operation of the SDK as a tool, as scripts/operations/mcp.ts writes it into tools.ts from
 * the operation's declaration: nothing of it is written by hand.
 */
export interface ToolDeclaration {
  /** `deliveries_track`: the operation's namespace and method in snake case. */
  readonly name: string;
  /** `deliveries.track`: the client's method the tool calls. */
  readonly operation: string;
  /** The operation's documentation, as its hover shows it. */
  readonly description: string;
  /** The method's parameters by name, in order, `options` last. */
  readonly parameters: readonly string[];
  /** The parameters the SDK checks itself before sending: its refusal names the field and the errorCode. */
  readonly checked: readonly string[];
  /**
   * How the answer is given: an object as it is (`value`), another value as `{ result }`
   * (`wrapped`), a list or what the operation yields 50 at a time with `nextCursor` (`list`,
   * `many`), or `{}` for nothing (`none`).
   */
  readonly answer: 'value' | 'wrapped' | 'list' | 'many' | 'none';
  /** Changes nothing at the service: listed without `allowWrites`. */
  readonly reads: boolean;
  /** Its options take `onProgress`: the tool reports progress through it. */
  readonly progress?: boolean;
  readonly annotations: ToolHints;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
}
