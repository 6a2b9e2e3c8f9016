/**
 * `delivery-sdk/mcp`: every operation of the client as a tool of an MCP server (Model Context
 * Protocol), for assistants: `createMcpServer({ client, allowWrites })`, for any transport of the
 * MCP SDK. `delivery-sdk mcp` serves it over stdio. Needs the optional peer dependency
 * `@modelcontextprotocol/sdk`; docs/mcp.md lists the tools.
 *
 * @module delivery-sdk/mcp
 */
export { createMcpServer, type McpServerOptions } from './server.js';
export type { JsonSchema, ToolDeclaration, ToolHints } from './tool.js';
export { TOOLS } from './tools.js';
