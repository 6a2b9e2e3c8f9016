// The configurations docs/mcp.md gives for Claude Desktop, VS Code and Cursor, started as each
// says, with the official SDK's client: `npx -p delivery-sdk -p @modelcontextprotocol/sdk
// delivery-sdk mcp` is the built command here (npx would fetch the published package), the key
// and base URL placeholders a served sandbox's.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { BIN, useServedSandbox } from '../cli/cli.js';
import { blocksOf } from '../docs/blocks.js';

interface Configured {
  type?: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

const blocks = blocksOf('docs/mcp.md').filter((block) => block.lang === 'json');
const servers = blocks.flatMap((block) => {
  const config = JSON.parse(block.code) as { mcpServers?: Record<string, Configured>; servers?: Record<string, Configured>; inputs?: unknown[] };
  return Object.entries(config.mcpServers ?? config.servers ?? {}).map(([name, server]) => ({ line: block.line, name, server, inputs: config.inputs }));
});

const cli = useServedSandbox();

describe('the assistants’ configurations of docs/mcp.md', () => {
  it('are three, for Claude Desktop, VS Code and Cursor, each starting delivery-sdk mcp with the MCP SDK beside it', () => {
    expect(servers).toHaveLength(3);
    for (const { server } of servers) {
      expect(server.command).toBe('npx');
      expect(server.args.slice(0, 7)).toEqual(['-y', '-p', 'delivery-sdk', '-p', '@modelcontextprotocol/sdk', 'delivery-sdk', 'mcp']);
      expect(Object.keys(server.env).sort()).toEqual(['DELIVERY_API_KEY', 'DELIVERY_BASE_URL']);
    }
    // VS Code asks for the key and keeps it secret.
    const vscode = servers.find(({ server }) => server.type === 'stdio');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's own placeholder syntax, as the page writes it.
    expect(vscode?.server.env['DELIVERY_API_KEY']).toBe('${input:delivery-api-key}');
    expect(vscode?.inputs).toEqual([expect.objectContaining({ id: 'delivery-api-key', type: 'promptString', password: true })]);
  });

  it.for(servers.map((server) => [`docs/mcp.md:${server.line}`, server] as const))('%s serves its tools as written', async ([, { server }]) => {
    const args = server.args.slice(7);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', ...args],
      env: { DELIVERY_API_KEY: cli.served.sandbox.apiKey, DELIVERY_BASE_URL: cli.served.server.baseUrl },
      cwd: cli.files.dir,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'docs', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('deliveries_track');
      const locations = await client.callTool({ name: 'pickup_locations_list', arguments: {} });
      expect(locations.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
