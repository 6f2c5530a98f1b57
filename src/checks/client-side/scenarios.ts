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

function mrtrTool(name: string, description: string, does: ScenarioTool['does']): ScenarioTool {
  return { name, description, inputSchema: { type: 'object', properties: {} }, does };
}

/**
 * The focal tool of json-schema-2020-12-preservation: the official scenario's schema, which spends the 2020-12
 * vocabulary (SEP-1613, SEP-2106) a client's tool model may not keep.
 */
export const SCHEMA_FOCAL: ScenarioTool = {
  name: 'json_schema_2020_12_tool',
  description: 'Tool with JSON Schema 2020-12 features',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: {
      address: {
        $anchor: 'addressDef',
        type: 'object',
        properties: { street: { type: 'string' }, city: { type: 'string' } },
      },
    },
    properties: {
      name: { type: 'string' },
      address: { $ref: '#/$defs/address' },
      contactMethod: { type: 'string', enum: ['phone', 'email'] },
      phone: { type: 'string' },
      email: { type: 'string' },
    },
    allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
    if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's then keyword, never awaited
    then: { required: ['phone'] },
    else: { required: ['email'] },
    additionalProperties: false,
  },
  does: 'text',
};
/** The tool a client hands the focal tool's inputSchema back through: what arrives is what the client kept. */
export const SCHEMA_ECHO: ScenarioTool = {
  name: 'json_schema_echo',
  description: 'Echoes back an arbitrary JSON Schema object, so the test server sees what the client kept of one',
  inputSchema: {
    type: 'object',
    properties: {
      schema: { type: 'object', description: `The inputSchema of ${SCHEMA_FOCAL.name}, as the client holds it` },
    },
    required: ['schema'],
  },
  does: 'echo',
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
    name: 'json-schema-2020-12-preservation',
    description: `${SCHEMA_FOCAL.name}'s inputSchema uses 2020-12 keywords ($schema, $defs with $anchor, $ref, allOf/anyOf, if/then/else, additionalProperties): the client lists tools and passes that schema, as it holds it, to ${SCHEMA_ECHO.name}`,
    revisions: BOTH,
    context: {},
    tools: [SCHEMA_FOCAL, SCHEMA_ECHO],
    asks: `call ${SCHEMA_ECHO.name} with {schema: the inputSchema of ${SCHEMA_FOCAL.name}}`,
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
      'On 2026-07-28 tools answer input_required with and without requestState, one answers without resultType, one is unrelated: the client retries each input request on a new id with its own requestState (none where none came), carries none to other calls, and takes a result without resultType as complete',
    revisions: STATELESS,
    context: {},
    // The official scenario's tools, so a client written for it calls them by name.
    tools: [
      mrtrTool('test_mrtr_echo_state', 'Asks for input with a requestState to echo', 'input-required'),
      mrtrTool('test_mrtr_no_state', 'Asks for input without a requestState', 'input-required-no-state'),
      mrtrTool('test_mrtr_unrelated', 'A plain tool: no input request, no state', 'text'),
      mrtrTool('test_mrtr_no_result_type', 'Answers as an earlier revision would: no resultType', 'no-result-type'),
    ],
    asks: 'call test_mrtr_echo_state, test_mrtr_no_state, test_mrtr_unrelated and test_mrtr_no_result_type',
  },
];

// Scenarios of the session, cancellation and tool-header checks (client-side/http/session-reinitialize,
// client-side/tools/cancel-abandoned and progress-token-unique, client-side/http/custom-headers).
const NEVER_ANSWERS: ScenarioTool = {
  name: 'never_answers',
  description: 'A call that never gets a result: the client has to give up on it',
  inputSchema: { type: 'object', properties: {} },
  does: 'hang',
};
const header = (type: string | string[], name: string, description: string) => ({
  type,
  description,
  'x-mcp-header': name,
});
/** A tool whose parameters are mirrored into Mcp-Param-* headers (2026-07-28, x-mcp-header). */
const SET_REGION: ScenarioTool = {
  name: 'set_region',
  description: 'A tool whose annotated parameters the client mirrors into Mcp-Param-* headers',
  inputSchema: {
    type: 'object',
    properties: {
      region: header('string', 'Region', 'Plain ASCII'),
      replicas: header('integer', 'Replicas', 'An integer, in decimal'),
      dryRun: header('boolean', 'DryRun', 'A boolean, in lower case'),
      label: header('string', 'Label', 'Non-ASCII: Base64 sentinel'),
      note: header('string', 'Note', 'Leading and trailing spaces: Base64 sentinel'),
      options: { type: 'object', properties: { zone: header('string', 'Zone', 'Nested through properties') } },
      weight: { type: 'number', description: 'Not annotated: no header' },
    },
    required: ['region'],
  },
  does: 'text',
};

/** A tool with a nullable x-mcp-header parameter: a call that gives it null sends no header for it. */
const SET_ZONE: ScenarioTool = {
  name: 'set_zone',
  description: 'A tool whose nullable zone parameter, given as null, is mirrored into no header',
  inputSchema: {
    type: 'object',
    properties: {
      region: header('string', 'Region', 'Plain ASCII'),
      zone: header(['string', 'null'], 'Zone', 'A string, or null for none'),
    },
    required: ['region'],
  },
  does: 'text',
};

CLIENT_SCENARIOS.push(
  {
    name: 'session-expired',
    description:
      'The server ends the session right after notifications/initialized: the next request gets 404, and the client starts a new session with initialize',
    revisions: NEWEST_INIT,
    context: {},
    tools: [ADD_NUMBERS],
    asks: 'send a request after its session ended',
    expireSession: true,
  },
  {
    name: 'request-abandoned',
    description:
      'The client calls never_answers, whose call never gets a result (and may call add_numbers meanwhile); a client that gives up cancels it with notifications/cancelled',
    revisions: NEWEST_INIT,
    context: { toolCalls: [{ name: 'never_answers', arguments: {} }], requestTimeoutMs: 1000 },
    tools: [NEVER_ANSWERS, ADD_NUMBERS],
    asks: 'call never_answers',
  },
  {
    name: 'http-custom-headers',
    description:
      'On 2026-07-28 a tool declares x-mcp-header parameters: each call carries Mcp-Param-{name} headers with the argument values (Base64 where unsafe), and none for an absent or null one',
    revisions: STATELESS,
    context: {
      toolCalls: [
        {
          name: 'set_region',
          arguments: {
            region: 'eu-west-3',
            replicas: 3,
            dryRun: false,
            label: 'Zürich',
            note: ' padded ',
            options: { zone: 'b' },
            weight: 0.5,
          },
        },
        { name: 'set_region', arguments: { region: 'us-east-1' } },
        // An explicit null: no header for it either.
        { name: 'set_zone', arguments: { region: 'ap-south-1', zone: null } },
      ],
    },
    tools: [SET_REGION, SET_ZONE],
    asks: 'call set_region and set_zone with the arguments of the context',
  },
  {
    name: 'http-invalid-tool-headers',
    description:
      'On 2026-07-28 tools/list holds ten tools whose x-mcp-header annotations are invalid (empty, not a token, repeated, on a non-primitive) and valid_tool: the client excludes the ten and calls valid_tool',
    revisions: STATELESS,
    transport: 'http',
    context: {},
    tools: [
      {
        name: 'valid_tool',
        description: 'Valid x-mcp-header: the client keeps and calls it',
        inputSchema: {
          type: 'object',
          properties: { region: header('string', 'Region', 'Mirrored') },
          required: ['region'],
        },
        does: 'text',
      },
      invalidTool('invalid_empty_header', 'An empty name', { value: header('string', '', '') }),
      invalidTool('invalid_object_header', 'On an object', { data: header('object', 'Data', '') }),
      invalidTool('invalid_array_header', 'On an array', {
        items: { ...header('array', 'Items', ''), items: { type: 'string' } },
      }),
      invalidTool('invalid_null_header', 'On null', { nil: header('null', 'Nil', '') }),
      invalidTool('invalid_duplicate_same_case', 'A name used twice', {
        field1: header('string', 'Region', ''),
        field2: header('string', 'Region', ''),
      }),
      invalidTool('invalid_duplicate_diff_case', 'A name used twice, in two cases', {
        field1: header('string', 'MyField', ''),
        field2: header('string', 'myfield', ''),
      }),
      invalidTool('invalid_space_in_name', 'A space in the name', { value: header('string', 'My Region', '') }),
      invalidTool('invalid_colon_in_name', 'A colon in the name', { value: header('string', 'Region:Primary', '') }),
      invalidTool('invalid_non_ascii_name', 'A non-ASCII name', { value: header('string', 'Région', '') }),
      invalidTool('invalid_control_char_name', 'A tab in the name', { value: header('string', 'Region\t1', '') }),
    ],
    asks: 'list the tools and call those it keeps',
  },
);

/** A tool whose x-mcp-header annotations break a rule of 2026-07-28 Tools › x-mcp-header: a client never calls it. */
function invalidTool(name: string, what: string, properties: Record<string, unknown>): ScenarioTool {
  return {
    name,
    description: `Invalid x-mcp-header (${what}): a client over Streamable HTTP excludes it`,
    inputSchema: { type: 'object', properties, required: Object.keys(properties) },
    does: 'text',
  };
}
