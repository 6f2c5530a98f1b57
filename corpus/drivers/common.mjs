// What the corpus drivers share: the URL they were given, and the one tool call a user's agent would make after
// listing: `add_numbers` when the server has it (the `tools_call` scenario), else the first tool, with a plain value
// of its type for every required argument (what a model fills in). Copied beside each driver by
// scripts/corpus-clients.mjs, so that each driver imports its library from the folder it was installed in.

/** The server URL: the last argument. */
export function serverUrl() {
  const url = process.argv.at(-1);
  if (!url || !/^https?:\/\//.test(url)) {
    process.stderr.write('usage: node <driver>.mjs <server URL>\n');
    process.exit(2);
  }
  return url;
}

const PLAIN = { string: 'example', number: 1, integer: 1, boolean: true, array: [], object: {} };

/**
 * The tool to call among `tools` (each `{ name, inputSchema }`) and its arguments, or undefined when there is none.
 * @param {{ name: string, inputSchema?: any }[]} tools
 */
export function chooseCall(tools) {
  const tool = tools.find((t) => t.name === 'add_numbers') ?? tools[0];
  if (!tool) return undefined;
  if (tool.name === 'add_numbers') return { name: tool.name, arguments: { a: 2, b: 3 } };
  const properties = tool.inputSchema?.properties ?? {};
  const args = Object.fromEntries(
    (tool.inputSchema?.required ?? []).map((p) => [
      p,
      properties[p]?.default ?? PLAIN[properties[p]?.type] ?? 'example',
    ]),
  );
  return { name: tool.name, arguments: args };
}

/** Runs `main`; exits 0 when it ends, 1 with its error on stderr (a driver ends its process: no lingering handles). */
export async function run(main) {
  try {
    await main();
    process.exit(0);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  }
}
