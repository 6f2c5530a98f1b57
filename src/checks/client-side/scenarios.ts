// The scenarios of a client run, as data: what the test server offers and does in each. Names are the official
// suite's where it has a scenario of that name, so a conformance client that switches on MCP_CONFORMANCE_SCENARIO runs
// unchanged.
import type { Scenario, ScenarioTool } from '../../transport/test-server/scenario.js';

const INIT = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
const NEWEST_INIT = ['2025-11-25'] as const;
const STATELESS = ['2026-07-28'] as const;
const BOTH = ['2025-11-25', '2026-07-28'] as const;

const ADD_NUMBERS: ScenarioTool = {
  name: 'add_numbers',
  description: 'Add two numbers',
  inputSchema: {
    type: 'object',
    properties: {
      a: { type: 'number', description: 'First number' },
      b: { type: 'number', description: 'Second number' },
    },
    required: ['a', 'b'],
  },
  does: 'sum',
};
const ASK_CLIENT: ScenarioTool = {
  name: 'ask_client',
  description: 'Asks the client for what it declared (ping, roots, sampling, elicitation) before it answers',
  inputSchema: { type: 'object', properties: {} },
  does: 'ask',
};

export const CLIENT_SCENARIOS: Scenario[] = [
  {
    name: 'initialize',
    description: 'The client connects (initialize, or server/discover on 2026-07-28), may list, and ends',
    revisions: BOTH,
    context: {},
    tools: [ADD_NUMBERS],
  },
  {
    name: 'tools_call',
    description: 'The client calls add_numbers with two numbers',
    revisions: BOTH,
    context: {},
    tools: [ADD_NUMBERS],
    asks: 'call add_numbers with two numbers',
  },
  {
    name: 'client-requests',
    description:
      'The client calls ask_client; on that call the server pings the client and asks for each capability it declared (roots/list, sampling/createMessage, elicitation/create), and roots/list once more when roots was not declared',
    revisions: INIT,
    context: { toolCalls: [{ name: 'ask_client', arguments: {} }] },
    tools: [ASK_CLIENT, ADD_NUMBERS],
    asks: 'call ask_client',
  },
  {
    name: 'elicitation-sep1034-client-defaults',
    description: 'The client calls a tool that asks for a form whose fields all have defaults; accepting applies them',
    revisions: NEWEST_INIT,
    context: {},
    tools: [
      {
        name: 'test_client_elicitation_defaults',
        description: 'Asks the client for a form with defaults',
        inputSchema: { type: 'object', properties: {} },
        does: 'elicit',
      },
    ],
    asks: 'call test_client_elicitation_defaults and accept the elicitation',
  },
  {
    name: 'sse-retry',
    description:
      'The client calls a tool whose SSE stream closes after a primed event with retry: 500; it resumes with GET and Last-Event-ID',
    revisions: NEWEST_INIT,
    transport: 'http',
    context: {},
    tools: [
      {
        name: 'test_reconnection',
        description: 'Answers after its stream was dropped and resumed',
        inputSchema: { type: 'object', properties: {} },
        does: 'sse-drop',
      },
    ],
    asks: 'call test_reconnection',
  },
  {
    name: 'json-schema-ref-no-deref',
    description:
      "A tool's inputSchema has a $ref to a network URL (a canary on the test server): the client lists tools and never fetches it",
    revisions: BOTH,
    context: {},
    tools: [
      {
        name: 'set_display_name',
        description: 'A tool whose schema refers to a remote document',
        inputSchema: {
          type: 'object',
          properties: { profile: { $ref: '{origin}/schemas/canary.json' }, $defs_ok: { $ref: '#/$defs/name' } },
          $defs: { name: { type: 'string' } },
        },
        does: 'text',
      },
    ],
    canaryPath: '/schemas/canary.json',
  },
  {
    name: 'request-metadata',
    description:
      'On 2026-07-28 the first request is refused with -32022 (unsupported protocol version): the client retries with a supported version, and every request carries _meta',
    revisions: STATELESS,
    context: {},
    tools: [ADD_NUMBERS],
    refuseFirstVersion: true,
  },
  {
    name: 'http-standard-headers',
    description: 'On 2026-07-28 every POST carries Mcp-Method (and Mcp-Name for tools/call) matching its body',
    revisions: STATELESS,
    transport: 'http',
    context: {},
    tools: [ADD_NUMBERS],
  },
  {
    name: 'sep-2322-client-request-state',
    description:
      'On 2026-07-28 a tool answers input_required with requestState: the client retries with the input responses and the requestState byte for byte',
    revisions: STATELESS,
    context: {},
    tools: [
      {
        name: 'test_input_required',
        description: 'Asks for input before it answers',
        inputSchema: { type: 'object', properties: {} },
        does: 'input-required',
      },
    ],
    asks: 'call test_input_required and answer its input request',
  },
];
