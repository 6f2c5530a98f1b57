// @ai-sdk/mcp as its README shows it: createMCPClient over HTTP, tools() for the model, one tool executed as the
// model's tool call would run it, close. `node ai-sdk-mcp.mjs <url>`.
import { createMCPClient } from '@ai-sdk/mcp';
import { chooseCall, run, serverUrl } from './common.mjs';

await run(async () => {
  const client = await createMCPClient({ transport: { type: 'http', url: serverUrl() } });
  try {
    const tools = await client.tools();
    const call = chooseCall(
      Object.entries(tools).map(([name, t]) => ({ name, inputSchema: t.inputSchema?.jsonSchema })),
    );
    if (call) {
      const result = await tools[call.name].execute(call.arguments, { toolCallId: 'call-1', messages: [] });
      process.stdout.write(`${call.name}: ${JSON.stringify(result).slice(0, 200)}\n`);
    }
  } finally {
    await client.close();
  }
});
