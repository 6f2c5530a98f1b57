// @langchain/mcp-adapters as its README shows it: a MultiServerMCPClient with one Streamable HTTP server,
// getTools() for the agent, one tool invoked as the agent's tool call would run it, close.
// `node langchain-mcp-adapters.mjs <url>`.
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { chooseCall, run, serverUrl } from './common.mjs';

await run(async () => {
  const client = new MultiServerMCPClient({ mcpServers: { server: { url: serverUrl() } } });
  try {
    const tools = await client.getTools();
    // The adapter keeps each tool's JSON Schema as the LangChain tool's schema.
    const call = chooseCall(tools.map((t) => ({ name: t.name, inputSchema: t.schema })));
    if (call) {
      const result = await tools.find((t) => t.name === call.name).invoke(call.arguments);
      process.stdout.write(`${call.name}: ${JSON.stringify(result).slice(0, 200)}\n`);
    }
  } finally {
    await client.close();
  }
});
