// The official client-conformance contract, over any MCP client SDK: the scenario comes in MCP_CONFORMANCE_SCENARIO,
// its JSON context in MCP_CONFORMANCE_CONTEXT, the revision in MCP_CONFORMANCE_PROTOCOL_VERSION, and the server URL is
// the last argument. Each scenario is done as a user of the SDK would do it; the entry points (sdk-v1.mjs,
// sdk-v2.mjs) build the SDK's client. Used by the benches and by `mcp-conformance client` runs on the SDKs.

/**
 * @typedef {object} Sdk
 * @property {any} client an SDK Client, connected by `connect`
 * @property {() => Promise<void>} connect
 * @property {(method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list', handler: (request: any) => any) => void} handle
 * @property {(params: any, timeoutMs: number) => Promise<unknown>} [timedCall] a tools/call with the SDK's request timeout
 */

/** The capabilities the contract client declares, with a handler for each: a host that answers what it declares. */
export const CAPABILITIES = {
  roots: { listChanged: true },
  sampling: {},
  elicitation: { form: { applyDefaults: true } },
};

/** @param {Sdk} sdk */
function answerServerRequests(sdk) {
  // Accepts with nothing filled in: the SDK applies the schema's defaults (applyDefaults above).
  sdk.handle('elicitation/create', (request) =>
    request.params?.requestedSchema?.properties?.confirmed
      ? { action: 'accept', content: { confirmed: true } }
      : { action: 'accept', content: {} },
  );
  sdk.handle('sampling/createMessage', () => ({
    role: 'assistant',
    content: { type: 'text', text: 'A sampled answer.' },
    model: 'contract-client-model',
    stopReason: 'endTurn',
  }));
  sdk.handle('roots/list', () => ({ roots: [{ uri: 'file:///tmp/contract-client', name: 'contract client root' }] }));
}

/** What each scenario asks of the client, after connecting; `context` is the scenario's JSON context, if any. */
const SCENARIOS = {
  async initialize(client) {
    await client.listTools();
  },
  async tools_call(client) {
    const { tools } = await client.listTools();
    if (tools.some((t) => t.name === 'add_numbers'))
      await client.callTool({ name: 'add_numbers', arguments: { a: 5, b: 3 } });
  },
  async 'elicitation-sep1034-client-defaults'(client) {
    await callEvery(client);
  },
  async 'sse-retry'(client) {
    await callEvery(client);
  },
  async 'request-metadata'(client) {
    await client.listTools();
  },
  async 'sep-2322-client-request-state'(client) {
    // Each listed tool answers input_required (or, one of them, a result with no resultType); the SDK does the rounds.
    await callEvery(client);
  },
  async 'http-standard-headers'(client) {
    await callEvery(client);
    const { resources } = await client.listResources();
    for (const r of resources) await client.readResource({ uri: r.uri });
    const { prompts } = await client.listPrompts();
    for (const p of prompts) await client.getPrompt({ name: p.name, arguments: {} });
  },
  async 'http-custom-headers'(client, context) {
    await callGiven(client, context);
  },
  async 'http-invalid-tool-headers'(client) {
    // The tools the SDK lists are the ones a host would offer its model: each is called once.
    await callEvery(client);
  },
  async 'json-schema-ref-no-deref'(client) {
    await client.listTools();
  },
  async 'json-schema-2020-12-preservation'(client) {
    const { tools } = await client.listTools();
    const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    if (focal) await client.callTool({ name: 'json_schema_echo', arguments: { schema: focal.inputSchema } });
  },
};

/** Lists the tools and makes the calls the scenario's context names (`toolCalls`: name and arguments), in order. */
async function callGiven(client, context) {
  await client.listTools();
  for (const call of context.toolCalls ?? [])
    await client.callTool({ name: call.name, arguments: call.arguments ?? {} });
}

/** Lists the tools and calls each one, with a plain value of its type for every required argument. */
async function callEvery(client) {
  const { tools } = await client.listTools();
  for (const tool of tools) await client.callTool({ name: tool.name, arguments: argumentsFor(tool.inputSchema) });
}

const PLAIN = { string: 'example', number: 1, integer: 1, boolean: true, array: [], object: {} };

/** What a model would fill in for the required properties of a simple object schema. */
function argumentsFor(schema) {
  const properties = schema?.properties ?? {};
  return Object.fromEntries(
    (schema?.required ?? []).map((name) => [
      name,
      PLAIN[properties[name]?.type] ?? properties[name]?.default ?? 'example',
    ]),
  );
}

/**
 * Runs the scenario named in the environment on a client `make(url, revision)` builds; exits 0 when it was done,
 * 1 (with the reason on stderr) when the SDK threw. A scenario of no known name lists the tools and makes the calls
 * its context names.
 * @param {(url: string, revision: string | undefined) => Sdk} make
 */
export async function runContract(make) {
  const url = process.argv.at(-1);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize';
  const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
  if (!url || !/^https?:\/\//.test(url)) {
    process.stderr.write('usage: <contract client> <server URL>  (MCP_CONFORMANCE_SCENARIO names the scenario)\n');
    process.exit(2);
  }
  const sdk = make(url, process.env.MCP_CONFORMANCE_PROTOCOL_VERSION);
  answerServerRequests(sdk);
  let code = 0;
  try {
    await sdk.connect();
    // A host gives up on a call that runs past its timeout (the SDK then cancels it): the context says how long.
    if (context.requestTimeoutMs && sdk.timedCall) {
      await sdk.client.listTools();
      for (const call of context.toolCalls ?? [])
        await sdk
          .timedCall({ name: call.name, arguments: call.arguments ?? {} }, context.requestTimeoutMs)
          // A host lives on after a call times out: the SDK's cancellation, sent without being awaited, gets the
          // moment it takes to leave before close() aborts what is still in flight.
          .catch(() => new Promise((resolve) => setTimeout(resolve, 200)));
    } else await (SCENARIOS[scenario] ?? callGiven)(sdk.client, context);
  } catch (error) {
    process.stderr.write(`${scenario}: ${error instanceof Error ? error.message : String(error)}\n`);
    code = 1;
  }
  await sdk.client.close().catch(() => {});
  process.exit(code);
}
