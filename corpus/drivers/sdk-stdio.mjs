// The official TypeScript SDK's client over stdio, as its README shows it: a Client on a StdioClientTransport that
// starts the server command, tools listed, one tool called, close (which ends the server's stdin and waits for it).
// `node sdk-stdio.mjs '<server command line>'` (what `{server}` of `mcp-conformance client` expands to).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chooseCall, run } from './common.mjs';

/** The command line's words (single quotes as a shell takes them). */
const words = (line) =>
  [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => m[2] ?? m[1].replaceAll("'\\''", "'"));

await run(async () => {
  const [command, ...args] = words(process.argv.at(-1) ?? '');
  if (!command) throw new Error("usage: node sdk-stdio.mjs '<server command line>'");
  const client = new Client({ name: 'sdk-stdio-driver', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args }));
  try {
    const { tools } = await client.listTools();
    const call = chooseCall(tools);
    if (call) {
      const result = await client.callTool(call);
      process.stdout.write(`${call.name}: ${JSON.stringify(result).slice(0, 200)}\n`);
    }
  } finally {
    await client.close();
  }
});
