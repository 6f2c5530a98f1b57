// test/conformance.test.ts: an official-SDK server tested in the test's own process (no build step, no child process).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { defineConformanceSuite } from 'mcp-conformance/vitest';
import { z } from 'zod';

// The server under test; a real project imports its own factory from src/.
function createServer(): McpServer {
  const server = new McpServer({ name: 'greeter', version: '1.0.0' });
  server.registerTool(
    'greet',
    { description: 'Greets someone by name', inputSchema: { name: z.string() }, annotations: { readOnlyHint: true } },
    async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
  );
  return server;
}

// A new server for every session the suite opens, on the streams a stdio server would have.
defineConformanceSuite({
  serve: ({ input, output }) => createServer().connect(new StdioServerTransport(input, output)),
  // SDK 1.32 refuses a task-augmented call of a tool without task support (-32603): not this server's to fix.
  skip: ['tasks/call/no-capability'],
});
