// A small, dependency-free MCP server core: everything except the stdio loop
// lives in `createServer()`, so test fixtures can wrap or override parts of it.
// Conformant to MCP revisions 2025-11-25, 2025-06-18 and 2025-03-26 (the initialize wire), and, when
// created with `{ revision: '2026-07-28' }` (or `'all'`, both eras at once), to 2026-07-28 (the stateless wire).
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { answerFromClient, clientRequestTools } from './client-requests.mjs';
import { SKILLS_EXTENSION, UNLISTED_SKILL, createSkills } from './skills.mjs';
import { TASKS_EXTENSION, createExtensionTasks, declaresTasks, missingTasks } from './tasks-extension.mjs';

export const SERVER_NAME = 'mcp-reference-server';
export const SERVER_VERSION = '1.0.0';
export const SUPPORTED_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'];
export const LATEST_VERSION = SUPPORTED_VERSIONS[0];
/** The stateless revision: no initialize; protocol version and client capabilities in every request's _meta. */
export const STATELESS_VERSION = '2026-07-28';
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  logLevel: 'io.modelcontextprotocol/logLevel',
};
/** Methods of the stateless wire only. */
const STATELESS_ONLY = new Set([
  'server/discover',
  'subscriptions/listen',
  // The Skills extension is specified against 2026-07-28.
  'skills/list',
  'skills/get',
  'resources/directory/read',
]);
/** A handler's answer when the response comes later: a subscriptions/listen stream stays open. */
const PENDING = Symbol('pending');
/** Results that carry caching hints in 2026-07-28 (server/utilities/caching). */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'skills/list',
  'skills/get',
]);
/** Methods 2026-07-28 removed (requirements §2.4); initialize gets -32022 instead. */
const REMOVED_IN_STATELESS = new Set(['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);
export const PAGE_SIZE = 2;
/** Tasks (2025-11-25 only): how long a task works before it completes on its own, and its related-task _meta key. */
export const TASKS_VERSION = '2025-11-25';
// Long enough that a client cancelling at once always meets the task working, even on a loaded machine.
const TASK_WORK_MS = 30_000;
/**
 * count-slowly: its steps and their length, 1.5 s in all: long enough that a client can cancel it after its first
 * progress (the cancellation check does so 300 ms after it, leaving 1.2 s), short because the checks that follow
 * progress wait for it.
 */
const SLOW_STEPS = 5;
const SLOW_STEP_MS = 300;
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export const ErrorCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  RESOURCE_NOT_FOUND: -32002,
  MISSING_REQUIRED_CLIENT_CAPABILITY: -32021,
  UNSUPPORTED_PROTOCOL_VERSION: -32022,
};

/** Thrown by handlers; becomes a JSON-RPC error response. */
export class RpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

const invalidParams = (message, data) => new RpcError(ErrorCode.INVALID_PARAMS, message, data);

// 8x8 and 16x16 RGB PNGs.
export const SMALL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAG0lEQVR42mP49euXXMUdTJIBq+ivX78YBqUOAJwyjAG7tAywAAAAAElFTkSuQmCC';
export const LOGO_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAANUlEQVR42mP4TyJgoIKGOzYacERAA7JSXNoYCKpG00OuBvyqkfUMXg20DyVyIo6cpEGT1AoAz3c6bzyNRU8AAAAASUVORK5CYII=';

// ---------------------------------------------------------------- helpers

export const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** True when the negotiated revision `rev` is `min` or newer (dates compare as strings). */
export const atLeast = (rev, min) => rev >= min;
const text = (t) => ({ type: 'text', text: t });

/** Type-checks a params object against a tiny spec: { key: 'string' | 'number' | 'object' | '?string' ... }. */
function checkParams(params, spec, method) {
  for (const [key, want] of Object.entries(spec)) {
    const optional = want.startsWith('?');
    const type = optional ? want.slice(1) : want;
    const value = params[key];
    if (value === undefined) {
      if (!optional) throw invalidParams(`Invalid params for ${method}: missing "${key}"`);
      continue;
    }
    const ok = type === 'object' ? isObject(value) : typeof value === type;
    if (!ok)
      throw invalidParams(`Invalid params for ${method}: "${key}" must be ${type === 'object' ? 'an' : 'a'} ${type}`);
  }
  if (params._meta !== undefined && !isObject(params._meta))
    throw invalidParams(`Invalid params for ${method}: "_meta" must be an object`);
}

const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const TYPE_CHECKS = {
  null: (v) => v === null,
  boolean: (v) => typeof v === 'boolean',
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  string: (v) => typeof v === 'string',
  array: (v) => Array.isArray(v),
  object: isObject,
};
const FORMAT_CHECKS = {
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().startsWith(v),
};

/**
 * Why `value` breaks `schema`, or null. Covers the JSON Schema keywords this server's tools use: type, enum,
 * const, bounds, lengths, pattern, format date, items, uniqueItems, required, properties,
 * additionalProperties: false, anyOf and local $refs.
 */
export function schemaProblem(schema, value, path = 'arguments', root = schema) {
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref
      .slice(2)
      .split('/')
      .reduce((s, key) => s?.[key], root);
    return schemaProblem(target, value, path, root);
  }
  if (schema.anyOf)
    return schema.anyOf.some((s) => schemaProblem(s, value, path, root) === null)
      ? null
      : `${path} matches none of its allowed forms`;
  if ('const' in schema && !sameJson(value, schema.const)) return `${path} must be ${JSON.stringify(schema.const)}`;
  if (schema.enum && !schema.enum.some((e) => sameJson(e, value)))
    return `${path} must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`;
  const types = schema.type === undefined ? [] : [schema.type].flat();
  if (types.length > 0 && !types.some((t) => TYPE_CHECKS[t](value)))
    return `${path} must be of type ${types.join(' or ')}`;
  if (typeof value === 'number') {
    if (value < schema.minimum || value <= schema.exclusiveMinimum) return `${path} is too small`;
    if (value > schema.maximum || value >= schema.exclusiveMaximum) return `${path} is too large`;
  }
  if (typeof value === 'string') {
    const length = [...value].length; // code points, as JSON Schema counts them
    if (length < schema.minLength || length > schema.maxLength) return `${path} has the wrong length`;
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value))
      return `${path} does not match ${schema.pattern}`;
    if (schema.format in FORMAT_CHECKS && !FORMAT_CHECKS[schema.format](value))
      return `${path} is not a ${schema.format}`;
  }
  if (Array.isArray(value)) {
    if (value.length < schema.minItems || value.length > schema.maxItems)
      return `${path} has the wrong number of items`;
    if (schema.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size < value.length)
      return `${path} has duplicate items`;
    for (const [i, item] of value.entries()) {
      const problem = schema.items ? schemaProblem(schema.items, item, `${path}[${i}]`, root) : null;
      if (problem) return problem;
    }
  }
  if (isObject(value)) {
    for (const key of schema.required ?? []) if (!Object.hasOwn(value, key)) return `${path} misses "${key}"`;
    for (const [key, item] of Object.entries(value)) {
      const prop = schema.properties?.[key];
      if (!prop && schema.additionalProperties === false) return `${path} has an unexpected "${key}"`;
      const problem = prop ? schemaProblem(prop, item, `${path}.${key}`, root) : null;
      if (problem) return problem;
    }
  }
  return null;
}

/** Opaque cursors: base64 of "<tag>:<offset>". */
export const encodeCursor = (tag, offset) => Buffer.from(`${tag}:${offset}`).toString('base64');

export function paginate(items, params, tag, key) {
  let offset = 0;
  if (params.cursor !== undefined) {
    const c = params.cursor;
    const decoded =
      typeof c === 'string' && Buffer.from(c, 'base64').toString('base64') === c
        ? Buffer.from(c, 'base64').toString()
        : '';
    const m = /^([a-z]+):(\d+)$/.exec(decoded);
    if (!m || m[1] !== tag || Number(m[2]) >= items.length) throw invalidParams('Invalid cursor');
    offset = Number(m[2]);
  }
  const result = { [key]: items.slice(offset, offset + PAGE_SIZE) };
  if (offset + PAGE_SIZE < items.length) result.nextCursor = encodeCursor(tag, offset + PAGE_SIZE);
  return result;
}

// ---------------------------------------------------------------- catalogue

function defaultTools() {
  return [
    {
      name: 'echo',
      title: 'Echo',
      description: 'Returns the message it is given.',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'Text to echo back' } },
        required: ['message'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: { 'dev.reference-server/category': 'demo' },
      run: (args) => ({ content: [text(String(args.message ?? ''))] }),
    },
    {
      name: 'add',
      title: 'Add Numbers',
      description: 'Adds two numbers.',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      annotations: { readOnlyHint: true, openWorldHint: false },
      // MCP Apps (io.modelcontextprotocol/ui): a host that renders apps shows the sum in SUM_VIEW.
      _meta: { ui: { resourceUri: SUM_VIEW, visibility: ['model', 'app'] } },
      run: (args, _server, rev) => {
        const structured = { sum: args.a + args.b };
        // Two finite numbers can add up to more than a double holds, and JSON has no Infinity.
        if (!Number.isFinite(structured.sum))
          return { content: [text(`${args.a} + ${args.b} is too large to represent`)], isError: true };
        if (!atLeast(rev, '2025-06-18')) return { content: [text(JSON.stringify(structured))] };
        return { content: [text(JSON.stringify(structured))], structuredContent: structured };
      },
    },
    {
      name: 'search-docs',
      title: 'Search Docs',
      description: 'Finds the documents whose text contains a query; its arguments use many JSON Schema keywords.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 64 },
          match: { enum: ['substring', 'prefix'] },
          limit: { type: 'integer', minimum: 1, maximum: 20 },
          caseSensitive: { type: ['boolean', 'null'] },
          tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]{1,10}$' }, maxItems: 3, uniqueItems: true },
          minScore: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
          lines: { $ref: '#/$defs/range' },
          since: { type: 'string', format: 'date' },
          style: { anyOf: [{ const: 'plain' }, { type: 'null' }] },
          version: { const: 1 },
        },
        required: ['query'],
        additionalProperties: false,
        $defs: {
          range: {
            type: 'object',
            properties: { from: { type: 'integer', minimum: 1 }, to: { type: 'integer', minimum: 1 } },
            required: ['from'],
            additionalProperties: false,
          },
        },
      },
      outputSchema: {
        type: 'object',
        properties: { matches: { type: 'array', items: { type: 'string' } } },
        required: ['matches'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      run: (args, server, rev) => {
        const fold = (s) => (args.caseSensitive ? s : s.toLowerCase());
        const found = (doc) =>
          args.match === 'prefix' ? fold(doc).startsWith(fold(args.query)) : fold(doc).includes(fold(args.query));
        const matches = server.resources
          .filter((r) => r.text !== undefined && found(r.text))
          .map((r) => r.uri)
          .slice(0, args.limit ?? 20);
        const structured = { matches };
        if (!atLeast(rev, '2025-06-18')) return { content: [text(JSON.stringify(structured))] };
        return { content: [text(JSON.stringify(structured))], structuredContent: structured };
      },
    },
    {
      name: 'get-image',
      title: 'Get Image',
      description: 'Returns a small PNG image.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: true, openWorldHint: false },
      run: () => ({ content: [{ type: 'image', data: SMALL_PNG, mimeType: 'image/png' }] }),
    },
    {
      name: 'write-note',
      title: 'Write Note',
      description: 'Stores a note in memory; read it back as ref://notes/{id}.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      run: (args, server, rev) => {
        const id = `note-${++server.state.noteCounter}`;
        const uri = `ref://notes/${id}`;
        server.notes.set(id, args.text);
        server.resourceUpdated(uri);
        /** @type {object[]} */
        const content = [text(`Saved note ${id} (${uri})`)];
        if (atLeast(rev, '2025-06-18')) content.push({ type: 'resource_link', uri, name: id, mimeType: 'text/plain' });
        return { content };
      },
    },
    {
      name: 'count-words',
      title: 'Count Words',
      description: 'Counts the words of a text; it may run as a task (2025-11-25).',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false },
      annotations: { readOnlyHint: true, openWorldHint: false },
      execution: { taskSupport: 'optional' },
      extTask: { kind: 'work' },
      run: (args) => ({ content: [text(`${(args.text ?? '').split(/\s+/).filter(Boolean).length} word(s)`)] }),
    },
    {
      name: 'index-docs',
      title: 'Index Docs',
      description: 'Counts the distinct words of the text documents; it runs only as a task (2025-11-25).',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: true, openWorldHint: false },
      execution: { taskSupport: 'required' },
      // As a task of the Tasks extension (2026-07-28) it fails: its index store cannot be written.
      extTask: { kind: 'fail', error: { code: -32603, message: 'The index store is read-only' } },
      run: (_args, server) => {
        const words = new Set(
          server.resources.flatMap((r) => (r.text ?? '').toLowerCase().split(/\W+/).filter(Boolean)),
        );
        return { content: [text(`${words.size} distinct word(s)`)] };
      },
    },
    {
      name: 'ask-name',
      title: 'Ask Name',
      description: 'Asks the user for their name (a form elicitation) and greets them.',
      // Over HTTP the greeting is mirrored in an Mcp-Param-Greeting header (2026-07-28, x-mcp-header).
      inputSchema: { type: 'object', properties: { greeting: { type: 'string', 'x-mcp-header': 'Greeting' } } },
      annotations: { readOnlyHint: true, openWorldHint: false },
      // It asks for input with an InputRequiredResult, which exists on the stateless wire only.
      stateless: true,
      // As a task of the Tasks extension, it asks through the task's inputRequests instead.
      extTask: {
        kind: 'input',
        key: 'name',
        ask: { method: 'elicitation/create', params: NAME_FORM },
        finish: (answer) => greeting(undefined, answer),
      },
      run: (args, _server, _rev, params) => askName(args, params),
    },
    {
      name: 'count-slowly',
      title: 'Count Slowly',
      description: `Counts to ${SLOW_STEPS}; a request with a progressToken gets progress for each step, one every ${SLOW_STEP_MS} ms, and a cancelled one stops without an answer.`,
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: true, openWorldHint: false },
      run: (_args, server, _rev, params, id) => server.countSlowly(params, id),
    },
  ];
}

const README = '# MCP reference server\n\nA small, fully conformant MCP server used by mcp-conformance.\n';
const CHANGELOG = '1.0.0\n- First release.\n';
/** The MCP App of `add`: a ui:// resource holding an HTML document, served as text/html;profile=mcp-app. */
const SUM_VIEW = 'ui://reference/sum.html';
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
const SUM_HTML =
  '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Sum</title></head><body><output id="sum"></output></body></html>\n';

function defaultResources() {
  return [
    {
      uri: 'ref://docs/readme',
      name: 'readme',
      title: 'README',
      description: 'What this server is.',
      mimeType: 'text/markdown',
      text: README,
      annotations: { audience: ['user', 'assistant'], priority: 0.8 },
    },
    {
      uri: 'ref://docs/changelog',
      name: 'changelog',
      title: 'Changelog',
      description: 'Release notes.',
      mimeType: 'text/plain',
      text: CHANGELOG,
      annotations: { audience: ['user'], priority: 0.3 },
    },
    {
      uri: 'ref://assets/logo',
      name: 'logo',
      title: 'Logo',
      description: 'The server logo.',
      mimeType: 'image/png',
      blob: LOGO_PNG,
      annotations: { audience: ['user'], priority: 0.1 },
    },
    {
      uri: SUM_VIEW,
      name: 'sum-view',
      title: 'Sum View',
      description: 'The MCP App that shows what add returns.',
      mimeType: APP_MIME_TYPE,
      text: SUM_HTML,
      annotations: { audience: ['user'], priority: 0.2 },
      _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
    },
  ];
}

const NOTE_TEMPLATE = 'ref://notes/{id}';
const NOTE_URI = /^ref:\/\/notes\/([A-Za-z0-9-]+)$/;
const templates = [
  {
    uriTemplate: NOTE_TEMPLATE,
    name: 'note',
    title: 'Note',
    description: 'A note kept in memory; any id made of letters, digits and "-".',
    mimeType: 'text/plain',
  },
];

function defaultPrompts() {
  return [
    {
      name: 'greet',
      title: 'Greet',
      description: 'Greets someone by name.',
      arguments: [{ name: 'name', title: 'Name', description: 'Who to greet', required: true }],
      render: (args) => [{ role: 'user', content: text(`Please greet ${args.name} warmly.`) }],
    },
    {
      name: 'summarize',
      title: 'Summarize',
      description: 'Asks for a summary of the README.',
      arguments: [{ name: 'style', title: 'Style', description: 'short, detailed or bullets', required: false }],
      render: (args) => [
        {
          role: 'user',
          content: text(`Summarize this document${args.style ? ` in a ${args.style} style` : ''}.`),
        },
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: 'ref://docs/readme', mimeType: 'text/markdown', text: README },
          },
        },
      ],
    },
    {
      name: 'plain',
      title: 'Plain',
      description: 'A prompt without arguments.',
      render: () => [{ role: 'user', content: text('Say hello.') }],
    },
    {
      name: 'greet-asked',
      title: 'Greet (asks the name)',
      description:
        'Greets someone whose name it asks the user for (a form elicitation, when the client can answer one).',
      // It asks for input with an InputRequiredResult, which exists on the stateless wire only.
      stateless: true,
      render: (_args, params) => greetAsked(params),
    },
    {
      name: 'describe-logo',
      title: 'Describe the logo',
      description: 'Shows the logo and asks for a description.',
      render: () => [
        { role: 'user', content: { type: 'image', data: LOGO_PNG, mimeType: 'image/png' } },
        { role: 'user', content: text('Describe this image.') },
      ],
    },
  ];
}

const NAMES = [
  'Ada',
  'Alan',
  'Alice',
  'Barbara',
  'Bob',
  'Charles',
  'Edsger',
  'Grace',
  'Katherine',
  'Linus',
  'Margaret',
  'Tim',
];
const STYLES = ['short', 'detailed', 'bullets'];

// ---------------------------------------------------------------- multi round-trip requests (2026-07-28)

/** The client capabilities a stateless request declares in its _meta. */
const clientCapabilities = (params) =>
  isObject(params._meta?.[META.clientCapabilities]) ? params._meta[META.clientCapabilities] : {};

// requestState goes through the client: it is signed with a key of this process, so it cannot be forged or altered.
const STATE_KEY = randomBytes(32);
const mac = (body) => createHmac('sha256', STATE_KEY).update(body).digest('base64url');
const seal = (value) => {
  const body = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${body}.${mac(body)}`;
};
function unseal(state) {
  const [body, tag] = typeof state === 'string' ? state.split('.') : [];
  const expected = typeof body === 'string' ? Buffer.from(mac(body)) : Buffer.alloc(0);
  if (
    typeof tag !== 'string' ||
    Buffer.byteLength(tag) !== expected.length ||
    !timingSafeEqual(Buffer.from(tag), expected)
  )
    throw invalidParams('Invalid requestState');
  return JSON.parse(Buffer.from(body, 'base64url').toString());
}

/** The client's answer to the elicitation `key` a retry carries: undefined when missing, -32602 when malformed. */
function elicitAnswer(params, key) {
  const responses = params.inputResponses;
  if (responses === undefined) return undefined;
  if (!isObject(responses)) throw invalidParams('inputResponses must be an object');
  const answer = responses[key];
  if (answer === undefined) return undefined;
  if (!isObject(answer) || !['accept', 'decline', 'cancel'].includes(answer.action))
    throw invalidParams(`inputResponses.${key} is not an ElicitResult`);
  return answer;
}

const NAME_FORM = {
  mode: 'form',
  message: 'What is your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] },
};
/** ask-name's answer to the client's elicitation answer. */
function greeting(args, answer) {
  const name =
    answer?.action === 'accept' && typeof answer.content?.name === 'string' ? answer.content.name : undefined;
  return { content: [text(name ? `${args?.greeting ?? 'Hello'}, ${name}!` : 'No name was given.')] };
}

/** ask-name: needs elicitation; asks for the name first, then greets with the answer the retry carries. */
function askName(args, params) {
  if (!clientCapabilities(params).elicitation) {
    throw new RpcError(
      ErrorCode.MISSING_REQUIRED_CLIENT_CAPABILITY,
      'Missing required client capability: elicitation',
      { requiredCapabilities: { elicitation: {} } },
    );
  }
  const answer = elicitAnswer(params, 'name');
  if (params.requestState === undefined || answer === undefined) {
    return {
      resultType: 'input_required',
      inputRequests: { name: { method: 'elicitation/create', params: NAME_FORM } },
      requestState: seal({ tool: 'ask-name' }),
    };
  }
  if (unseal(params.requestState).tool !== 'ask-name') throw invalidParams('Invalid requestState');
  return greeting(args, answer);
}

/**
 * greet-asked: asks for the name when the request declared elicitation, then greets with the answer the retry carries.
 * Without elicitation it needs nothing from the client: it greets "the user".
 */
function greetAsked(params) {
  const greeting = (name) => [{ role: 'user', content: text(`Please greet ${name ?? 'the user'} warmly.`) }];
  if (!clientCapabilities(params).elicitation) return greeting();
  const answer = elicitAnswer(params, 'name');
  if (params.requestState === undefined || answer === undefined) {
    const ask = {
      mode: 'form',
      message: 'Whom should I greet?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] },
    };
    return {
      resultType: 'input_required',
      inputRequests: { name: { method: 'elicitation/create', params: ask } },
      requestState: seal({ prompt: 'greet-asked' }),
    };
  }
  if (unseal(params.requestState).prompt !== 'greet-asked') throw invalidParams('Invalid requestState');
  return greeting(
    answer.action === 'accept' && typeof answer.content?.name === 'string' ? answer.content.name : undefined,
  );
}

// ---------------------------------------------------------------- per-revision views

function toolView(tool, rev) {
  const view = { name: tool.name };
  if (atLeast(rev, '2025-06-18') && tool.title !== undefined) view.title = tool.title;
  view.description = tool.description;
  view.inputSchema = tool.inputSchema;
  if (atLeast(rev, '2025-06-18') && tool.outputSchema !== undefined) view.outputSchema = tool.outputSchema;
  if (tool.annotations) view.annotations = tool.annotations;
  if (rev === TASKS_VERSION && tool.execution !== undefined) view.execution = tool.execution;
  if (atLeast(rev, '2025-06-18') && tool._meta !== undefined) view._meta = tool._meta;
  return view;
}

/**
 * Tasks exist in 2025-11-25; on 2026-07-28 the same support is the Tasks extension. The Skills extension (2026-07-28)
 * comes with resources, which serve the skills' files.
 */
function capabilitiesView(capabilities, rev) {
  const { tasks, ...view } = structuredClone(capabilities);
  if (rev === STATELESS_VERSION) {
    const extensions = {
      ...(tasks && { [TASKS_EXTENSION]: {} }),
      ...(view.resources && { [SKILLS_EXTENSION]: { directoryRead: true } }),
    };
    return Object.keys(extensions).length > 0 ? { ...view, extensions } : view;
  }
  return rev === TASKS_VERSION && tasks ? { ...view, tasks } : view;
}

function annotationsView(annotations, rev) {
  return atLeast(rev, '2025-06-18') ? { ...annotations, lastModified: '2025-06-01T00:00:00Z' } : annotations;
}

function resourceView(r, rev) {
  const view = { uri: r.uri, name: r.name };
  if (atLeast(rev, '2025-06-18')) view.title = r.title;
  Object.assign(view, { description: r.description, mimeType: r.mimeType });
  view.size = r.text !== undefined ? Buffer.byteLength(r.text) : Buffer.from(r.blob, 'base64').length;
  view.annotations = annotationsView(r.annotations, rev);
  if (atLeast(rev, '2025-06-18') && r._meta !== undefined) view._meta = r._meta;
  return view;
}

const withoutTitle = ({ title, ...rest }) => rest;

function templateView(t, rev) {
  return atLeast(rev, '2025-06-18') ? { ...t } : withoutTitle(t);
}

function promptView(p, rev) {
  const view = { name: p.name };
  if (atLeast(rev, '2025-06-18')) view.title = p.title;
  view.description = p.description;
  if (p.arguments) view.arguments = p.arguments.map((a) => (atLeast(rev, '2025-06-18') ? { ...a } : withoutTitle(a)));
  return view;
}

function serverInfo(rev) {
  const info = { name: SERVER_NAME, version: SERVER_VERSION };
  if (atLeast(rev, '2025-06-18')) info.title = 'MCP Reference Server';
  if (atLeast(rev, '2025-11-25')) {
    info.description = 'A small, fully conformant MCP server bundled with mcp-conformance.';
    info.icons = [{ src: `data:image/png;base64,${LOGO_PNG}`, mimeType: 'image/png', sizes: ['16x16'] }];
  }
  return info;
}

// ---------------------------------------------------------------- resource lookup

/** Returns the contents item for a URI, or throws resource-not-found: -32002, or -32602 from 2026-07-28 on. */
function readResource(server, uri) {
  const fixed = server.resources.find((r) => r.uri === uri);
  if (fixed) {
    const item = { uri, mimeType: fixed.mimeType };
    if (fixed.text !== undefined) item.text = fixed.text;
    else item.blob = fixed.blob;
    if (atLeast(server.revision, '2025-06-18') && fixed._meta !== undefined) item._meta = fixed._meta;
    return item;
  }
  const skillFile = server.skills.read(uri);
  if (skillFile) return skillFile;
  const m = NOTE_URI.exec(uri);
  if (m) return { uri, mimeType: 'text/plain', text: server.notes.get(m[1]) ?? `(note "${m[1]}" is empty)` };
  const code = server.revision === STATELESS_VERSION ? ErrorCode.INVALID_PARAMS : ErrorCode.RESOURCE_NOT_FOUND;
  throw new RpcError(code, 'Resource not found', { uri });
}

// ---------------------------------------------------------------- method handlers
// Each handler receives (params, server) and returns a result object or throws RpcError.

export const handlers = {
  initialize(params, server) {
    checkParams(params, { protocolVersion: 'string', capabilities: 'object', clientInfo: 'object' }, 'initialize');
    checkParams(params.clientInfo, { name: 'string', version: 'string' }, 'initialize (clientInfo)');
    const requested = params.protocolVersion;
    const rev = SUPPORTED_VERSIONS.includes(requested) ? requested : LATEST_VERSION;
    server.state.protocolVersion = rev;
    server.state.clientInfo = params.clientInfo;
    server.state.clientCapabilities = params.capabilities;
    return {
      protocolVersion: rev,
      capabilities: capabilitiesView(server.capabilities, rev),
      serverInfo: serverInfo(rev),
      instructions:
        'Reference server for mcp-conformance: tools echo, add, search-docs, get-image, write-note, count-words, index-docs and count-slowly (over stdio also ask-llm, confirm-choice, sign-in and list-roots, which ask the client); docs under ref://docs/.',
    };
  },

  'server/discover'(params, server) {
    // Reached on the stateless wire only.
    checkParams(params, {}, 'server/discover');
    return {
      supportedVersions: [STATELESS_VERSION],
      capabilities: capabilitiesView(server.capabilities, STATELESS_VERSION),
      instructions: `Reference server for mcp-conformance (2026-07-28): tools echo, add, search-docs, get-image, write-note, ask-name, count-words, index-docs and count-slowly. Skills: see skills/list; before a release, follow ${UNLISTED_SKILL}.`,
    };
  },

  ping(params) {
    checkParams(params, {}, 'ping');
    return {};
  },

  'tools/list'(params, server) {
    checkParams(params, { cursor: '?string' }, 'tools/list');
    const rev = server.revision;
    return paginate(
      server.visibleTools().map((t) => toolView(t, rev)),
      params,
      'tools',
      'tools',
    );
  },

  'tools/call'(params, server, id) {
    checkParams(params, { name: 'string', arguments: '?object' }, 'tools/call');
    const tool = server.visibleTools().find((t) => t.name === params.name);
    if (!tool) throw invalidParams(`Unknown tool: ${JSON.stringify(params.name)}`);
    const args = params.arguments ?? {};
    // Without the tasks capability (other revisions), a task request is a plain call (tasks.nocap.ignore).
    const support =
      server.revision === TASKS_VERSION && server.capabilities.tasks?.requests?.tools?.call
        ? (tool.execution?.taskSupport ?? 'forbidden')
        : undefined;
    if (support === 'forbidden' && params.task !== undefined)
      throw new RpcError(ErrorCode.METHOD_NOT_FOUND, `Tool ${tool.name} cannot run as a task`);
    if (support === 'required' && params.task === undefined)
      throw new RpcError(ErrorCode.METHOD_NOT_FOUND, `Tool ${tool.name} runs only as a task`);
    const problem = schemaProblem(tool.inputSchema, args);
    if (problem) return { content: [text(`Invalid arguments for tool ${tool.name}: ${problem}`)], isError: true };
    server.log('info', `tool ${tool.name} called`);
    const run = () => tool.run(args, server, server.revision, params, id);
    if (extensionTask(server, tool, params)) return server.extTasks.create(tool, run);
    if (support !== undefined && params.task !== undefined) return { task: server.createTask(params.task, run) };
    const result = run();
    if (typeof result?.then !== 'function') return result;
    // A tool that asked the client something answers once the client has answered.
    result.then(
      (r) => server.send({ jsonrpc: '2.0', id, result: r }),
      (err) =>
        server.send(
          err instanceof RpcError
            ? errorResponse(id, err.code, err.message, err.data)
            : errorResponse(id, ErrorCode.INTERNAL_ERROR, 'Internal error'),
        ),
    );
    return PENDING;
  },

  'tasks/get'(params, server) {
    if (server.revision === STATELESS_VERSION) return extensionTasks(server, params).get(params);
    return { ...taskEntry(server, params, 'tasks/get').task };
  },

  'tasks/result'(params, server) {
    const entry = taskEntry(server, params, 'tasks/result');
    // A working task finishes its work now: the answer waits for the terminal status (Result Retrieval #3).
    server.finishTask(entry);
    if (entry.task.status === 'cancelled') throw invalidParams(`Task ${entry.task.taskId} was cancelled`);
    return { ...entry.result, _meta: { ...entry.result._meta, [RELATED_TASK]: { taskId: entry.task.taskId } } };
  },

  'tasks/list'(params, server) {
    tasksServed(server, 'list');
    checkParams(params, { cursor: '?string' }, 'tasks/list');
    return paginate(
      [...server.tasks.values()].map((e) => ({ ...e.task })),
      params,
      'tasks',
      'tasks',
    );
  },

  'tasks/update'(params, server) {
    if (server.revision !== STATELESS_VERSION)
      throw new RpcError(ErrorCode.METHOD_NOT_FOUND, 'Method not found: tasks/update');
    return extensionTasks(server, params).update(params);
  },

  'tasks/cancel'(params, server) {
    if (server.revision === STATELESS_VERSION) return extensionTasks(server, params).cancel(params);
    tasksServed(server, 'cancel');
    const entry = taskEntry(server, params, 'tasks/cancel');
    if (entry.task.status !== 'working')
      throw invalidParams(`Task ${entry.task.taskId} is already ${entry.task.status}`);
    clearTimeout(entry.timer);
    Object.assign(entry.task, { status: 'cancelled', lastUpdatedAt: new Date().toISOString() });
    return { ...entry.task };
  },

  'resources/list'(params, server) {
    checkParams(params, { cursor: '?string' }, 'resources/list');
    const rev = server.revision;
    return paginate(
      server.resources.map((r) => resourceView(r, rev)),
      params,
      'resources',
      'resources',
    );
  },

  'resources/templates/list'(params, server) {
    checkParams(params, { cursor: '?string' }, 'resources/templates/list');
    const rev = server.revision;
    return paginate(
      server.templates.map((t) => templateView(t, rev)),
      params,
      'templates',
      'resourceTemplates',
    );
  },

  'resources/read'(params, server) {
    checkParams(params, { uri: 'string' }, 'resources/read');
    return { contents: [readResource(server, params.uri)] };
  },

  'skills/list'(params, server) {
    checkParams(params, { cursor: '?string' }, 'skills/list');
    return paginate(server.skills.listed(), params, 'skills', 'skills');
  },

  'skills/get'(params, server) {
    checkParams(params, { uri: 'string' }, 'skills/get');
    return { skill: server.skills.get(params.uri) };
  },

  'resources/directory/read'(params, server) {
    checkParams(params, { uri: 'string', cursor: '?string' }, 'resources/directory/read');
    return paginate(server.skills.children(params.uri), params, 'dir', 'resources');
  },

  'resources/subscribe'(params, server) {
    checkParams(params, { uri: 'string' }, 'resources/subscribe');
    readResource(server, params.uri); // throws -32002 for unknown URIs
    server.subscriptions.add(params.uri);
    // The new subscriber hears at once that the resource may have changed since it last read it (unless it has left).
    setImmediate(
      () =>
        server.subscriptions.has(params.uri) && server.notify('notifications/resources/updated', { uri: params.uri }),
    );
    return {};
  },

  'resources/unsubscribe'(params, server) {
    checkParams(params, { uri: 'string' }, 'resources/unsubscribe');
    readResource(server, params.uri);
    server.subscriptions.delete(params.uri);
    return {};
  },

  'prompts/list'(params, server) {
    checkParams(params, { cursor: '?string' }, 'prompts/list');
    const rev = server.revision;
    return paginate(
      server.visiblePrompts().map((p) => promptView(p, rev)),
      params,
      'prompts',
      'prompts',
    );
  },

  'prompts/get'(params, server) {
    checkParams(params, { name: 'string', arguments: '?object' }, 'prompts/get');
    const prompt = server.visiblePrompts().find((p) => p.name === params.name);
    if (!prompt) throw invalidParams(`Unknown prompt: ${JSON.stringify(params.name)}`);
    const args = params.arguments ?? {};
    for (const [key, value] of Object.entries(args)) {
      if (typeof value !== 'string') throw invalidParams(`Prompt argument "${key}" must be a string`);
    }
    for (const a of prompt.arguments ?? []) {
      if (a.required && args[a.name] === undefined) throw invalidParams(`Missing required argument: ${a.name}`);
    }
    const messages = prompt.render(args, params);
    // A prompt may ask for input instead (2026-07-28): its InputRequiredResult goes out as it is.
    return Array.isArray(messages) ? { description: prompt.description, messages } : messages;
  },

  'completion/complete'(params, server) {
    checkParams(params, { ref: 'object', argument: 'object', context: '?object' }, 'completion/complete');
    checkParams(params.argument, { name: 'string', value: 'string' }, 'completion/complete (argument)');
    const { ref, argument } = params;
    let candidates;
    if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
      const prompt = server.visiblePrompts().find((p) => p.name === ref.name);
      if (!prompt) throw invalidParams(`Unknown prompt: ${ref.name}`);
      candidates = { greet: { name: NAMES }, summarize: { style: STYLES } }[ref.name]?.[argument.name] ?? [];
    } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
      if (!server.templates.some((t) => t.uriTemplate === ref.uri))
        throw invalidParams(`Unknown resource template: ${ref.uri}`);
      candidates = argument.name === 'id' ? [...server.notes.keys()] : [];
    } else {
      throw invalidParams('Invalid params for completion/complete: unknown ref');
    }
    const needle = argument.value.toLowerCase();
    const matches = candidates.filter((c) => c.toLowerCase().startsWith(needle));
    const values = matches.slice(0, 100);
    return { completion: { values, total: matches.length, hasMore: matches.length > values.length } };
  },

  'subscriptions/listen'(params, server, id) {
    checkParams(params, { notifications: 'object' }, 'subscriptions/listen');
    const wanted = params.notifications;
    // Task notifications need the Tasks extension; none are agreed to (they are optional).
    if (wanted.taskIds !== undefined && !declaresTasks(clientCapabilities(params)))
      throw new RpcError(
        ErrorCode.MISSING_REQUIRED_CLIENT_CAPABILITY,
        `Missing required client capability: ${TASKS_EXTENSION}`,
        missingTasks(),
      );
    const caps = server.capabilities;
    // The acknowledgement names the requested types this server can send, and only those are ever sent.
    const agreed = {};
    if (wanted.toolsListChanged === true && caps.tools?.listChanged) agreed.toolsListChanged = true;
    if (wanted.resourcesListChanged === true && caps.resources?.listChanged) agreed.resourcesListChanged = true;
    if (wanted.promptsListChanged === true && caps.prompts?.listChanged) agreed.promptsListChanged = true;
    if (Array.isArray(wanted.resourceSubscriptions) && caps.resources?.subscribe)
      agreed.resourceSubscriptions = wanted.resourceSubscriptions.filter((u) => typeof u === 'string');
    if (Array.isArray(wanted.taskIds) && caps.tasks)
      agreed.taskIds = wanted.taskIds.filter((t) => server.extTasks.has(t));
    server.listens.set(JSON.stringify(id), { id, notifications: agreed });
    server.notify('notifications/subscriptions/acknowledged', {
      notifications: agreed,
      _meta: { [META.subscriptionId]: id },
    });
    return PENDING;
  },

  'logging/setLevel'(params, server) {
    checkParams(params, { level: 'string' }, 'logging/setLevel');
    if (!LOG_LEVELS.includes(params.level)) throw invalidParams(`Invalid log level: ${params.level}`);
    server.state.logLevel = params.level;
    return {};
  },
};

/** Notifications the server understands; any other notification is ignored. None is ever answered. */
export const notificationHandlers = {
  'notifications/initialized'(_params, server) {
    if (server.state.initialized) return;
    server.state.initialized = true;
    // Once per session, show the client both kinds of server-initiated traffic: a log message and a ping; and, as it
    // declares listChanged, that its tool list may change.
    server.log('info', 'session initialized');
    if (server.capabilities.tools?.listChanged) server.notify('notifications/tools/list_changed');
    server.send({ jsonrpc: '2.0', id: `${SERVER_NAME}-ping-${++server.state.requestCounter}`, method: 'ping' });
  },
  // Every request but subscriptions/listen is answered synchronously; cancelling a listen request closes its stream.
  'notifications/cancelled'(params, server) {
    server.listens.delete(JSON.stringify(params.requestId));
    server.stopWork(params.requestId);
  },
  'notifications/roots/list_changed'() {},
};

/** Whether a call becomes a task of the Tasks extension: on 2026-07-28, for a client that declares it (and, for a tool that asks, elicitation). */
function extensionTask(server, tool, params) {
  if (server.revision !== STATELESS_VERSION || !server.capabilities.tasks || !tool.extTask) return false;
  const caps = clientCapabilities(params);
  return declaresTasks(caps) && (tool.extTask.kind !== 'input' || isObject(caps.elicitation));
}

/** The extension's tasks, for a request of a client that declares the extension (-32021 otherwise). */
function extensionTasks(server, params) {
  if (!server.capabilities.tasks)
    throw new RpcError(ErrorCode.METHOD_NOT_FOUND, 'Method not found: tasks are not supported here');
  if (!declaresTasks(clientCapabilities(params)))
    throw new RpcError(
      ErrorCode.MISSING_REQUIRED_CLIENT_CAPABILITY,
      `Missing required client capability: ${TASKS_EXTENSION}`,
      missingTasks(),
    );
  checkParams(params, { taskId: 'string' }, 'tasks');
  return server.extTasks;
}

/** Tasks methods answer -32601 where the capability (or its `feature`: list, cancel) is not declared. */
function tasksServed(server, feature) {
  const tasks = server.revision === TASKS_VERSION ? server.capabilities.tasks : undefined;
  if (!tasks || (feature && !tasks[feature]))
    throw new RpcError(ErrorCode.METHOD_NOT_FOUND, 'Method not found: tasks are not supported here');
}

/** The task a request names; an unknown id is invalid params. */
function taskEntry(server, params, method) {
  tasksServed(server);
  checkParams(params, { taskId: 'string' }, method);
  const entry = server.tasks.get(params.taskId);
  if (!entry) throw invalidParams(`Unknown task: ${JSON.stringify(params.taskId)}`);
  return entry;
}

// ---------------------------------------------------------------- message dispatch

export function errorResponse(id, code, message, data) {
  const error = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: '2.0', id, error };
}

/** An id that can be echoed in an error: a string or an integer, else null. */
export const readableId = (id) => (typeof id === 'string' || Number.isInteger(id) ? id : null);

/** Why a JSON value is not a valid JSON-RPC request (or null when it is one). */
export function requestProblem(msg) {
  if (!isObject(msg)) return 'message must be a JSON object';
  if (msg.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if (typeof msg.method !== 'string') return 'method must be a string';
  if ('id' in msg && readableId(msg.id) === null) return 'id must be a string or an integer';
  if ('params' in msg && !isObject(msg.params) && !Array.isArray(msg.params)) return 'params must be an object';
  return null;
}

/** Why a 2026-07-28 request cannot be served (an error response), or null. */
function statelessProblem(msg, server) {
  const meta = isObject(msg.params) && isObject(msg.params._meta) ? msg.params._meta : {};
  // A legacy initialize learns which versions to use instead (basic/versioning).
  const requested = msg.method === 'initialize' ? msg.params?.protocolVersion : meta[META.protocolVersion];
  if (msg.method !== 'initialize' && (typeof requested !== 'string' || !isObject(meta[META.clientCapabilities]))) {
    return errorResponse(
      msg.id,
      ErrorCode.INVALID_PARAMS,
      `Invalid params: _meta must carry ${META.protocolVersion} and ${META.clientCapabilities}`,
    );
  }
  if (requested !== STATELESS_VERSION || msg.method === 'initialize') {
    return errorResponse(msg.id, ErrorCode.UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${requested}`, {
      requested: String(requested),
      supported: server.versions,
    });
  }
  if (REMOVED_IN_STATELESS.has(msg.method))
    return errorResponse(msg.id, ErrorCode.METHOD_NOT_FOUND, `Method not found: ${JSON.stringify(msg.method)}`);
  return null;
}

/** A 2026-07-28 result: its resultType, the caching hints where required, and the server's name in _meta. */
function statelessResult(method, result) {
  const extra = CACHEABLE.has(method) ? { ttlMs: 60_000, cacheScope: 'public' } : {};
  return {
    resultType: 'complete',
    ...result,
    ...extra,
    _meta: { ...result._meta, [META.serverInfo]: serverInfo(STATELESS_VERSION) },
  };
}

/**
 * `revision`: undefined serves the initialize wire only; '2026-07-28' the stateless wire only; 'all' both.
 * @param {{ revision?: string }} [options]
 */
export function createServer({ revision } = {}) {
  const legacy = revision !== STATELESS_VERSION;
  const stateless = revision === STATELESS_VERSION || revision === 'all';
  const server = {
    /** Every version this server speaks, newest first. */
    versions: [...(stateless ? [STATELESS_VERSION] : []), ...(legacy ? SUPPORTED_VERSIONS : [])],
    /** Set while a stateless request is handled (handlers run synchronously). */
    statelessRequest: false,
    /** The log level a stateless request's _meta asked for, while it is handled (none: no log messages for it). */
    requestLogLevel: undefined,
    state: {
      /** @type {string | null} */
      protocolVersion: null,
      clientInfo: null,
      initialized: false,
      logLevel: 'info',
      noteCounter: 0,
      requestCounter: 0,
    },
    // The capabilities and lists are open (typed loosely): test servers and benches built on this one change them.
    /** @type {Record<string, any>} */
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
      completions: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    },
    /** @type {Record<string, any>[]} */
    tools: [...defaultTools(), ...clientRequestTools()],
    /** @type {Record<string, any>[]} */
    resources: defaultResources(),
    templates: templates.map((t) => ({ ...t })),
    /** @type {Record<string, any>[]} */
    prompts: defaultPrompts(),
    notes: new Map([
      ['welcome', 'Welcome to the reference server.'],
      ['todo', 'Write more conformance tests.'],
    ]),
    subscriptions: new Set(),
    /** Open subscriptions/listen streams, by request id (JSON). */
    listens: new Map(),
    /** Tasks by id: { task, run, result, timer }. */
    tasks: new Map(),
    /** The skills of the Skills extension (2026-07-28). */
    skills: createSkills(invalidParams),
    /** The Tasks extension's tasks (2026-07-28). */
    extTasks: createExtensionTasks(
      (code, message, data) => new RpcError(code, message, data),
      (task) => server.taskChanged(task),
    ),
    /** Set by a transport that can answer a request later (stdio); without it, slow work is done at once. */
    canDefer: false,
    /** Slow calls still working, by request id (JSON): a notifications/cancelled stops them. */
    working: new Map(),
    handlers: { ...handlers },
    notificationHandlers: { ...notificationHandlers },

    /** The negotiated revision (the newest one before initialize). */
    get revision() {
      return this.statelessRequest ? STATELESS_VERSION : (this.state.protocolVersion ?? LATEST_VERSION);
    },

    /** Whether a request is for the stateless wire: in both eras, when it names a protocol version in _meta. */
    isStateless(msg) {
      if (!stateless) return false;
      const meta = isObject(msg.params) && isObject(msg.params._meta) ? msg.params._meta : {};
      return !legacy || META.protocolVersion in meta || msg.method === 'server/discover';
    },

    /** The tools of the wire in use: some exist on the stateless wire only. */
    visibleTools() {
      // Tools that ask the client something need a wire that carries a later answer: the initialize wire over stdio.
      return this.tools.filter(
        (t) =>
          (!t.stateless || this.revision === STATELESS_VERSION) &&
          (!t.clientRequests || (this.canDefer && this.revision !== STATELESS_VERSION)),
      );
    },

    /** The prompts of the wire in use: some exist on the stateless wire only. */
    visiblePrompts() {
      return this.prompts.filter((p) => !p.stateless || this.revision === STATELESS_VERSION);
    },

    /** Tells every subscriber of `uri`: a resources/subscribe one, and each listen stream that asked for it. */
    resourceUpdated(uri) {
      if (this.subscriptions.has(uri)) this.notify('notifications/resources/updated', { uri });
      for (const listen of this.listens.values()) {
        if (listen.notifications.resourceSubscriptions?.includes(uri))
          this.notify('notifications/resources/updated', { uri, _meta: { [META.subscriptionId]: listen.id } });
      }
    },

    /** Tells each listen stream that asked for an extension task its new state (notifications/tasks). */
    taskChanged(task) {
      for (const listen of this.listens.values()) {
        if (listen.notifications.taskIds?.includes(task.taskId))
          this.notify('notifications/tasks', { ...task, _meta: { [META.subscriptionId]: listen.id } });
      }
    },

    /** Starts a task for `run` (the tool's work), which completes after a while or when its result is asked for. */
    createTask(metadata, run) {
      const now = new Date().toISOString();
      const ttl = Number.isInteger(metadata?.ttl) ? metadata.ttl : null;
      const entry = {
        task: { taskId: randomUUID(), status: 'working', createdAt: now, lastUpdatedAt: now, ttl, pollInterval: 250 },
        run,
      };
      entry.timer = setTimeout(() => this.finishTask(entry), TASK_WORK_MS);
      entry.timer.unref();
      this.tasks.set(entry.task.taskId, entry);
      return { ...entry.task };
    },

    finishTask(entry) {
      if (entry.task.status !== 'working') return;
      clearTimeout(entry.timer);
      entry.result = entry.run();
      Object.assign(entry.task, {
        status: entry.result.isError ? 'failed' : 'completed',
        lastUpdatedAt: new Date().toISOString(),
      });
    },

    /** count-slowly: progress for each step when the request carries a progressToken, then the answer (later, where the transport allows). */
    countSlowly(params, id) {
      const token = params._meta?.progressToken;
      const progress = (n) =>
        token !== undefined &&
        this.notify('notifications/progress', {
          progressToken: token,
          progress: n,
          total: SLOW_STEPS,
          message: `step ${n} of ${SLOW_STEPS}`,
        });
      const result = { content: [text(`Counted to ${SLOW_STEPS}.`)] };
      progress(0);
      // Only a caller that follows the progress waits for it (generated calls stay quick).
      if (!this.canDefer || token === undefined) {
        for (let n = 1; n <= SLOW_STEPS; n++) progress(n);
        return result;
      }
      const stateless = this.statelessRequest;
      let n = 0;
      const timer = setInterval(() => {
        progress(++n);
        if (n < SLOW_STEPS) return;
        this.stopWork(id);
        this.send({ jsonrpc: '2.0', id, result: stateless ? statelessResult('tools/call', result) : result });
      }, SLOW_STEP_MS);
      this.working.set(JSON.stringify(id), timer);
      return PENDING;
    },

    stopWork(id) {
      clearInterval(this.working.get(JSON.stringify(id)));
      this.working.delete(JSON.stringify(id));
    },

    /** Writes one outgoing message; replaced by the transport. */
    send(_message) {},

    notify(method, params) {
      this.send({ jsonrpc: '2.0', method, params });
    },

    log(level, data) {
      // 2026-07-28 logs only for a request that asks for it, at the level its _meta names (server/utilities/logging).
      // Undefined when no level is set: it is in no list then.
      const threshold = /** @type {string} */ (this.statelessRequest ? this.requestLogLevel : this.state.logLevel);
      if (
        this.capabilities.logging &&
        LOG_LEVELS.includes(threshold) &&
        LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold)
      ) {
        this.notify('notifications/message', { level, logger: SERVER_NAME, data });
      }
    },

    /** Handles one parsed JSON value (not an array). Returns the response, or null when none is due. */
    handleMessage(msg) {
      if (isObject(msg) && !('method' in msg) && ('result' in msg || 'error' in msg)) {
        answerFromClient(this, msg); // to a tool's question; to our ping: nothing to do
        return null;
      }
      if (isObject(msg) && typeof msg.method === 'string' && !('id' in msg)) {
        const handler = Object.hasOwn(this.notificationHandlers, msg.method)
          ? this.notificationHandlers[msg.method]
          : null;
        try {
          handler?.(isObject(msg.params) ? msg.params : {}, this);
        } catch {
          // notifications never get an answer, not even an error
        }
        return null;
      }
      const problem = requestProblem(msg);
      if (problem)
        return errorResponse(
          isObject(msg) ? readableId(msg.id) : null,
          ErrorCode.INVALID_REQUEST,
          `Invalid request: ${problem}`,
        );
      const isStateless = this.isStateless(msg);
      const refused = isStateless ? statelessProblem(msg, this) : null;
      if (refused) return refused;
      const handler = Object.hasOwn(this.handlers, msg.method) ? this.handlers[msg.method] : null;
      if (!handler || (STATELESS_ONLY.has(msg.method) && !isStateless))
        return errorResponse(msg.id, ErrorCode.METHOD_NOT_FOUND, `Method not found: ${JSON.stringify(msg.method)}`);
      if ('params' in msg && !isObject(msg.params))
        return errorResponse(msg.id, ErrorCode.INVALID_PARAMS, 'Invalid params: expected an object');
      this.statelessRequest = isStateless;
      this.requestLogLevel = isStateless ? msg.params?._meta?.[META.logLevel] : undefined;
      try {
        const result = handler(msg.params ?? {}, this, msg.id);
        if (result === PENDING) return null;
        return { jsonrpc: '2.0', id: msg.id, result: isStateless ? statelessResult(msg.method, result) : result };
      } catch (err) {
        if (err instanceof RpcError) return errorResponse(msg.id, err.code, err.message, err.data);
        process.stderr.write(
          `internal error in ${msg.method}: ${/** @type {{ stack?: string } | undefined} */ (err)?.stack ?? err}\n`,
        );
        return errorResponse(msg.id, ErrorCode.INTERNAL_ERROR, 'Internal error');
      } finally {
        this.statelessRequest = false;
      }
    },

    /** Handles one input line. Returns what to write back (a message, an array of them, or null). */
    handleLine(line) {
      if (line.trim() === '') return null;
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        return errorResponse(null, ErrorCode.PARSE_ERROR, 'Parse error: invalid JSON');
      }
      if (!Array.isArray(msg)) return this.handleMessage(msg);
      if (this.revision !== '2025-03-26')
        return errorResponse(
          null,
          ErrorCode.INVALID_REQUEST,
          'Invalid request: batches are not supported in this protocol revision',
        );
      if (msg.length === 0) return errorResponse(null, ErrorCode.INVALID_REQUEST, 'Invalid request: empty batch');
      const responses = msg.map((m) => this.handleMessage(m)).filter((r) => r !== null);
      return responses.length > 0 ? responses : null;
    },
  };
  return server;
}

// ---------------------------------------------------------------- stdio

/** Calls onLine for each newline-terminated line of `input` (CR stripped), then onEnd once it closes. */
export function readLines(input, onLine, onEnd) {
  let buffer = '';
  input.setEncoding('utf8');
  input.on('data', (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      onLine(line);
    }
  });
  input.on('end', () => {
    if (buffer.length > 0) onLine(buffer.replace(/\r$/, ''));
    buffer = '';
    onEnd();
  });
}

/** Exits once everything written to `output` has been flushed. */
export function exitAfterFlush(output = process.stdout, code = 0) {
  output.write('', () => process.exit(code));
  setTimeout(() => process.exit(code), 200).unref();
}

/** Serves MCP on a pair of streams, as over stdio, without touching the process: a test may run it in its own. */
export function serveStreams(server, { input, output }, onEnd = () => {}) {
  const write = (message) => output.write(JSON.stringify(message) + '\n');
  server.send = write;
  server.canDefer = true;
  readLines(
    input,
    (line) => {
      const out = server.handleLine(line);
      if (out !== null) write(out);
    },
    onEnd,
  );
}

export function runStdio(server, { input = process.stdin, output = process.stdout } = {}) {
  output.on('error', () => process.exit(0)); // the client went away
  process.stderr.write(`${SERVER_NAME} ${SERVER_VERSION}: serving MCP on stdio (pid ${process.pid})\n`);
  serveStreams(server, { input, output }, () => exitAfterFlush(output));
}
