// @mastra/mcp as its README and reference show it: an MCPClient with one server by URL, listTools() for the agent
// (named `<server>_<tool>`), one tool executed as the agent's tool call would run it, disconnect.
// `node mastra-mcp.mjs <url>`.
import { MCPClient } from '@mastra/mcp';
import { chooseCall, run, serverUrl } from './common.mjs';

await run(async () => {
  const mcp = new MCPClient({ servers: { server: { url: new URL(serverUrl()) } } });
  try {
    const tools = await mcp.listTools();
    // Each tool's input schema is a Standard Schema; its JSON Schema is what a model is shown.
    const listed = Object.entries(tools).map(([key, t]) => ({
      name: key.replace(/^server_/, ''),
      inputSchema: t.inputSchema?.['~standard']?.jsonSchema?.input({ target: 'draft-2020-12' }),
    }));
    const call = chooseCall(listed);
    if (call) {
      const result = await tools[`server_${call.name}`].execute(call.arguments, {});
      process.stdout.write(`${call.name}: ${JSON.stringify(result).slice(0, 200)}\n`);
    }
  } finally {
    await mcp.disconnect();
  }
});
