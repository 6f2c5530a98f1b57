import {
  REVISIONS,
  STATELESS_REVISION,
  errorDefinition,
  notificationDefinition,
  resultDefinition,
  serverRequestDefinition,
  validate,
} from '../schema/validators.js';
import { schemaRevision } from '../discovery/discover.js';
import type { Exchange, InboundEvent, Message } from '../session/session.js';
import { requirement } from './check.js';
import type { Finding, FrameRule } from './frame-rule.js';
import { isObject } from '../json.js';

const failing = (message: string, extra: Partial<Finding> = {}): Finding[] => [{ severity: 'fail', message, ...extra }];
const messageOf = (e: InboundEvent): Message | undefined => e.message;

/** An error that answers input whose id could not be read: its id may be absent or null (requirements §5.7). */
function answersUnreadable(m: Message): boolean {
  const code = isObject(m.error) ? m.error.code : undefined;
  return 'error' in m && (m.id === null || !('id' in m)) && (code === -32700 || code === -32600);
}

/** Grammar of `_meta` keys: optional dotted prefix + "/", then a name (basic#meta). */
const META_KEY =
  /^(?:(?:[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?\/)?(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$/;

/** Collects the _meta keys under `value`; `path` (keys and indexes from the frame) is spelled out only for those. */
function metaKeys(value: unknown, path: (string | number)[], out: { path: string; key: string }[]): void {
  if (path.length > 64 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      path.push(i);
      metaKeys(v, path, out);
      path.pop();
    });
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k === '_meta' && isObject(v)) {
      const at = `$${path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('')}._meta`;
      for (const key of Object.keys(v)) out.push({ path: at, key });
    }
    path.push(k);
    metaKeys(v, path, out);
    path.pop();
  }
}

/** Each frame's _meta keys, collected once for the rules that read them. */
const metaKeysByMessage = new WeakMap<Message, { path: string; key: string }[]>();

/** The _meta keys of a frame (2025-06-18 and later, where the key format exists); undefined when it has none. */
function metaKeysOf(e: InboundEvent): { path: string; key: string }[] | undefined {
  const m = messageOf(e);
  if (!m || e.revision === undefined || e.revision === '2025-03-26') return undefined;
  let keys = metaKeysByMessage.get(m);
  if (!keys) {
    keys = [];
    metaKeys(m, [], keys);
    metaKeysByMessage.set(m, keys);
  }
  return keys.length > 0 ? keys : undefined;
}

function schemaFindings(revision: string | undefined, definition: string | undefined, value: unknown, what: string): Finding[] | undefined {
  if (!revision || !definition) return undefined;
  const r = validate(revision, definition, value);
  if (r.ok) return [];
  // `format` is an annotation in JSON Schema 2020-12, which the official schemas use: alone, it breaks no MUST.
  if (r.formats) return [{ severity: 'warn', message: `${what} does not validate against ${definition} (${revision}) only by format ${r.formats.map((f) => JSON.stringify(f)).join(', ')} (an annotation of JSON Schema 2020-12)`, expected: `a valid ${definition}`, actual: r.errors }];
  return failing(`${what} does not validate against ${definition} (${revision})`, { expected: `a valid ${definition}`, actual: r.errors });
}


/** A task-augmented tools/call (2025-11-25) answered with a task: it is judged as a CreateTaskResult. */
function taskCreated(revision: string, exchange: Exchange, result: unknown): boolean {
  if (exchange.method !== 'tools/call' || !isObject(result)) return false;
  // 2026-07-28: the Tasks extension marks a task handle with resultType "task".
  if (revision === STATELESS_REVISION) return result.resultType === 'task';
  return revision === '2025-11-25' && isObject(exchange.params) && isObject(exchange.params.task) && 'task' in result;
}

/** Spec-defined _meta keys under the reserved prefixes (2025-11-25, and the protocol fields of 2026-07-28). */
const SPEC_META_KEYS = new Set([
  'io.modelcontextprotocol/related-task',
  'io.modelcontextprotocol/model-immediate-response',
  'io.modelcontextprotocol/serverInfo',
  'io.modelcontextprotocol/subscriptionId',
]);

/** A prefix reserved for MCP: the second label is modelcontextprotocol or mcp (2025-11-25), or any label is (2025-06-18). */
function reservedPrefix(key: string, revision: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const labels = key.slice(0, slash).split('.');
  const reserved = (l: string | undefined) => l === 'modelcontextprotocol' || l === 'mcp';
  return revision >= '2025-11-25' ? reserved(labels[1]) : labels.some(reserved);
}

/** Fields a server may not send under an older negotiated revision (requirements §3.5), by revision. */
const NEWER_FIELDS: Record<string, { keys: string[]; types: string[]; methods: string[] }> = {
  '2025-03-26': {
    keys: ['outputSchema', 'structuredContent', 'lastModified', 'icons', 'execution', 'websiteUrl', 'resultType', 'ttlMs', 'cacheScope'],
    types: ['resource_link'],
    methods: ['elicitation/create', 'notifications/elicitation/complete', 'notifications/tasks/status'],
  },
  '2025-06-18': {
    keys: ['icons', 'execution', 'websiteUrl', 'resultType', 'ttlMs', 'cacheScope'],
    types: [],
    methods: ['notifications/elicitation/complete', 'notifications/tasks/status'],
  },
  '2025-11-25': { keys: ['resultType', 'ttlMs', 'cacheScope'], types: [], methods: [] },
};

/** Patterns of credentials that must never appear in log messages (a heuristic). */
const SECRETS = [
  /\bBearer\s+[A-Za-z0-9._~+/-]{20,}/,
  /\bAKIA[0-9A-Z]{16}\b/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/,
  /\bsk-[A-Za-z0-9]{20,}\b/,
  /\bxox[abpr]-[A-Za-z0-9-]{10,}\b/,
];

/** The non-empty strings anywhere in a request's params, longest first (so none is cut out of a longer one). */
function sentStrings(value: unknown): string[] {
  const found: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (v) found.push(v);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (isObject(v)) Object.values(v).forEach(walk);
  };
  walk(value);
  return found.sort((x, y) => y.length - x.length);
}

/** Server→client request ids seen per session, for the uniqueness rule. */
const serverRequestIds = new Map<number, Set<string>>();

export const PROTOCOL_RULES: FrameRule[] = [
  {
    id: 'base/error/message-concise',
    title: 'Error messages are one short sentence',
    requirement: requirement('base.error.message-concise', 'SHOULD', 'basic#responses', 'An error message should be a concise single sentence'),
    looksAt: 'error response',
    inspect(e) {
      const err = e.kind === 'response' && isObject(e.message?.error) ? e.message.error : undefined;
      if (!err || typeof err.message !== 'string') return undefined;
      // What the message quotes of the request (a long generated URI, a multi-line argument) is the client's text.
      const m = sentStrings(e.exchange?.params).reduce((text, sent) => text.split(sent).join(''), err.message);
      return m.includes('\n') || m.length > 300
        ? [{ severity: 'warn', message: `error message of ${m.length} characters${m.includes('\n') ? ' over several lines' : ''}`, expected: 'one sentence, under 300 characters besides what it quotes of the request', actual: err.message.slice(0, 300) }]
        : [];
    },
  },
  {
    id: 'base/request/id',
    title: 'Server requests carry a string or integer id, never reused',
    requirement: requirement('base.request.id-type', 'MUST', 'basic#requests', 'A request the server sends has a string or integer id that it has not used before in the session'),
    covers: ['base.request.id-unique'],
    looksAt: 'server-to-client request',
    inspect(e) {
      const m = messageOf(e);
      // A 2026-07-28 server sends no requests at all: stateless/no-server-requests judges them.
      if (e.kind !== 'request' || !m || typeof m.method !== 'string' || e.revision === STATELESS_REVISION || m.method.startsWith('notifications/')) return undefined;
      if (!(typeof m.id === 'string' || Number.isInteger(m.id))) return failing(`${m.method} request with id ${JSON.stringify(m.id)}`, { expected: 'a string or integer id', actual: m.id });
      const seen = serverRequestIds.get(e.session) ?? new Set<string>();
      serverRequestIds.set(e.session, seen);
      const key = `${typeof m.id}:${m.id}`;
      if (seen.has(key)) return failing(`${m.method} reuses request id ${JSON.stringify(m.id)}`, { expected: 'an id not used before in the session', actual: m.id });
      seen.add(key);
      return [];
    },
  },
  {
    id: 'base/meta/reserved-prefix',
    title: '_meta keys do not invent names under the MCP-reserved prefixes',
    requirement: requirement('base.meta.reserved-prefix', 'SHOULD', 'basic#meta', 'Prefixes whose labels name modelcontextprotocol or mcp are reserved for the specification'),
    looksAt: 'message with _meta (2025-06-18 and later)',
    inspect(e) {
      const keys = metaKeysOf(e);
      return keys
        ?.filter((k) => reservedPrefix(k.key, e.revision!) && !SPEC_META_KEYS.has(k.key))
        .map((k) => ({ severity: 'warn' as const, message: `_meta key ${JSON.stringify(k.key)} at ${k.path} uses a reserved prefix`, expected: 'your own reverse-DNS prefix', actual: k.key }));
    },
  },
  {
    id: 'lifecycle/version/respect',
    title: 'Nothing newer than the negotiated revision is sent',
    requirement: requirement('life.version.respect', 'MUST', 'basic/lifecycle#operation', 'Both sides respect the negotiated protocol version: no fields, content types or methods of later revisions'),
    looksAt: 'message in a negotiated session',
    inspect(e) {
      const m = messageOf(e);
      const newer = e.revision ? NEWER_FIELDS[e.revision] : undefined;
      if (!m || !newer) return undefined;
      if (typeof m.method === 'string' && newer.methods.includes(m.method)) {
        return [{ severity: 'warn', message: `${m.method} does not exist in ${e.revision}`, expected: `only ${e.revision} messages`, actual: m.method }];
      }
      const found: string[] = [];
      const walk = (v: unknown, path: string, depth: number) => {
        if (depth > 32 || typeof v !== 'object' || v === null) return;
        if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${path}[${i}]`, depth + 1));
        for (const [k, x] of Object.entries(v)) {
          if (newer.keys.includes(k)) found.push(`${path}.${k}`);
          if (k === 'type' && typeof x === 'string' && newer.types.includes(x)) found.push(`${path} (type ${x})`);
          // Tool input/output schemas are the server's own JSON Schemas: their keywords are not MCP fields.
          if (k !== 'inputSchema' && k !== 'outputSchema') walk(x, `${path}.${k}`, depth + 1);
        }
      };
      walk(m, '$', 0);
      return found.map((f) => ({ severity: 'warn' as const, message: `${f} is newer than the negotiated ${e.revision}`, expected: `only ${e.revision} fields`, actual: f }));
    },
  },
  {
    id: 'capabilities/client/undeclared-requests',
    title: 'No sampling, elicitation or roots requests to a client that declared none',
    requirement: requirement('cap.client.sampling.gate', 'MUST', 'basic/lifecycle#operation', 'The server sends sampling, elicitation and roots requests only to clients that declared those capabilities'),
    covers: ['cap.client.elicitation.gate', 'cap.client.roots.gate', 'cap.client.sampling.tools', 'cap.client.sampling.context', 's2c.gates'],
    looksAt: 'server-to-client request',
    inspect(e) {
      const m = messageOf(e);
      if (e.kind !== 'request' || !m || typeof m.method !== 'string' || e.revision === STATELESS_REVISION || m.method.startsWith('notifications/')) return undefined;
      if (m.method === 'ping') return [];
      // The suite's client declares no capabilities, but in the session where the server's requests are answered.
      const declared = e.clientCapabilities ?? {};
      const problem = undeclaredRequest(m, declared);
      return problem ? failing(problem, { expected: `only ping and the requests of the declared capabilities ${JSON.stringify(declared)}`, actual: m.method }) : [];
    },
  },
  {
    id: 'logging/messages/no-secrets',
    title: 'Log messages carry no credentials',
    requirement: requirement('log.no-secrets', 'MUST', 'server/utilities/logging#security', 'Log messages must not contain credentials, secrets or private keys'),
    looksAt: 'notifications/message',
    inspect(e) {
      const m = messageOf(e);
      if (!m || m.method !== 'notifications/message') return undefined;
      const text = JSON.stringify(m.params ?? null);
      const hit = SECRETS.find((re) => re.test(text));
      // A pattern match is a heuristic, so it warns rather than fails.
      return hit ? [{ severity: 'warn', message: `a log message looks like it contains a credential (${hit.source.slice(0, 30)}…)`, expected: 'no secrets in logs', actual: '(redacted)' }] : [];
    },
  },
];

/** The client capability each server→client request needs. */
const CAPABILITY_OF: Record<string, string | undefined> = { 'sampling/createMessage': 'sampling', 'elicitation/create': 'elicitation', 'roots/list': 'roots' };

/**
 * Why a server→client request is one the client did not ask for with its capabilities (lifecycle#operation; url-mode
 * elicitation needs `elicitation.url`, and tool-enabled sampling `sampling.tools`, in 2025-11-25); undefined when allowed.
 */
function undeclaredRequest(m: Record<string, unknown>, declared: Record<string, unknown>): string | undefined {
  const params = isObject(m.params) ? m.params : {};
  const cap = (name: string) => (isObject(declared[name]) ? (declared[name] as Record<string, unknown>) : undefined);
  const want = CAPABILITY_OF[m.method as string];
  if (Object.keys(declared).length === 0) return `${String(m.method)} sent to a client that declared no capabilities`;
  if (want === undefined) return `${String(m.method)} sent: it is no request of a client capability`;
  if (!cap(want)) return `${String(m.method)} sent to a client that did not declare ${want}`;
  if (want === 'sampling' && ('tools' in params || 'toolChoice' in params) && !cap('sampling')?.tools) return 'a sampling request with tools sent to a client that did not declare sampling.tools';
  if (want === 'elicitation' && params.mode === 'url' && !cap('elicitation')?.url) return 'a URL-mode elicitation sent to a client that did not declare elicitation.url';
  return undefined;
}

/** The stdio, JSON-RPC and schema rules; the protocol and content rules follow them. */
export const CORE_RULES: FrameRule[] = [
  {
    id: 'transport/stdio/stdout-only-messages',
    title: 'stdout carries only JSON-RPC messages, one per line',
    requirement: requirement('stdio.stdout.only-mcp', 'MUST', 'basic/transports#stdio', 'The server writes nothing to stdout that is not a valid MCP message; messages are newline-delimited with no embedded newlines'),
    covers: ['stdio.framing.newline', 'base.utf8'],
    looksAt: 'stdout line',
    transport: 'stdio',
    inspect(e) {
      const problem = e.line.problem;
      if (problem === undefined) {
        if (e.kind !== 'invalid' || e.message) return [];
        return failing('a stdout line is JSON but not a JSON-RPC message', { actual: e.line.entry.text });
      }
      // SDK readers skip blank lines and strip \r, so these only warn.
      const severity = problem === 'blank line' || problem.startsWith('CRLF') ? 'warn' : 'fail';
      return [{ severity, message: `stdout line #${e.line.entry.seq}: ${problem}`, expected: 'one JSON-RPC message per line', actual: e.line.entry.text }];
    },
  },
  {
    id: 'transport/stdio/no-batch',
    title: 'No JSON-RPC batch arrays on stdout (2025-06-18 and later)',
    requirement: requirement('stdio.framing.single', 'MUST', 'basic/transports#stdio', 'Messages on stdio are individual JSON-RPC requests, notifications or responses, not batches'),
    looksAt: 'message',
    transport: 'stdio',
    inspect(e) {
      if (!e.message) return undefined;
      if (!e.batch || e.revision === undefined || e.revision === '2025-03-26') return [];
      return failing(`a batch array was sent in a ${e.revision} session`, { expected: 'a single JSON object per line', actual: e.line.entry.text });
    },
  },
  {
    id: 'base/jsonrpc/version',
    title: 'Every message carries "jsonrpc": "2.0"',
    requirement: requirement('base.jsonrpc.version', 'MUST', 'basic#messages', 'Every message the server sends is a JSON-RPC 2.0 object with "jsonrpc": "2.0"'),
    looksAt: 'message',
    inspect(e) {
      const m = messageOf(e);
      if (!m) return undefined;
      return m.jsonrpc === '2.0' ? [] : failing('message without "jsonrpc": "2.0"', { expected: { jsonrpc: '2.0' }, actual: { jsonrpc: m.jsonrpc ?? null } });
    },
  },
  {
    id: 'base/response/id-echo',
    title: 'A response id equals the request id in value and JSON type',
    requirement: requirement('base.response.id-echo', 'MUST', 'basic#responses', 'A response carries the same id as the request it answers, with the same JSON type'),
    looksAt: 'response to a request',
    inspect(e) {
      if (e.kind !== 'response' || !e.exchange) return undefined;
      if (!e.looseId) return [];
      return failing(`response to ${e.exchange.method} has id ${JSON.stringify(e.message?.id)} (${typeof e.message?.id}), the request had ${JSON.stringify(e.exchange.id)} (${typeof e.exchange.id})`, {
        expected: { id: e.exchange.id },
        actual: { id: e.message?.id },
      });
    },
  },
  {
    id: 'base/response/unsolicited',
    title: 'Every response answers a request the client sent',
    requirement: requirement('base.response.id-echo', 'MUST', 'basic#responses', 'Responses answer requests: a response id is the id of a request the client sent'),
    looksAt: 'response',
    inspect(e) {
      const m = messageOf(e);
      if (e.kind !== 'response' || !m) return undefined;
      // An id no request can have (another JSON type, echoed from an invalid request the client did send, e.g. "id": [])
      // is not unsolicited: schema/errors (an error's id MUST then be null) and malformed-frames (an invalid line served)
      // judge it.
      const invalidId = 'id' in m && m.id !== null && typeof m.id !== 'string' && typeof m.id !== 'number';
      // An HTTP body answers the POST that carried it, whatever its id (line.answers).
      if (e.exchange || answersUnreadable(m) || invalidId || e.line.answers !== undefined) return [];
      return failing(`response with id ${JSON.stringify(m.id)} answers no request the client sent`, { expected: 'an id of a pending request', actual: m });
    },
  },
  {
    id: 'base/response/result-xor-error',
    title: 'A response has exactly one of result and error',
    requirement: requirement('base.response.xor', 'MUST', 'basic#responses', 'A response sets either result or error, never both and never neither'),
    looksAt: 'response',
    inspect(e) {
      const m = messageOf(e);
      if (!m || typeof m.method === 'string') return undefined;
      const both = 'result' in m && 'error' in m;
      if (e.kind === 'response' && !both) return [];
      return failing(both ? 'response sets both result and error' : 'message has neither method, result nor error', { expected: 'exactly one of result, error', actual: m });
    },
  },
  {
    id: 'base/result/object',
    title: 'A result is a JSON object',
    requirement: requirement('base.result.object', 'MUST', 'basic#responses', 'The result of a response is a JSON object'),
    looksAt: 'result response',
    inspect(e) {
      const m = messageOf(e);
      if (e.kind !== 'response' || !m || !('result' in m)) return undefined;
      return isObject(m.result) ? [] : failing(`result of ${e.exchange?.method ?? 'a response'} is ${Array.isArray(m.result) ? 'an array' : JSON.stringify(m.result)}`, { expected: 'an object', actual: m.result });
    },
  },
  {
    id: 'base/error/shape',
    title: 'An error has an integer code and a string message',
    requirement: requirement('base.error.shape', 'MUST', 'basic#responses', 'An error response carries an error object whose code is an integer and whose message is a string'),
    looksAt: 'error response',
    inspect(e) {
      const m = messageOf(e);
      if (e.kind !== 'response' || !m || !('error' in m)) return undefined;
      const err = m.error;
      if (isObject(err) && Number.isInteger(err.code) && typeof err.message === 'string') return [];
      return failing('error object without an integer code and a string message', { expected: { code: 'integer', message: 'string' }, actual: err });
    },
  },
  {
    id: 'base/notification/no-id',
    title: 'Notifications carry no id',
    requirement: requirement('base.notification.no-id', 'MUST', 'basic#notifications', 'Notifications do not include an id'),
    looksAt: 'notification',
    inspect(e) {
      const m = messageOf(e);
      if (!m || typeof m.method !== 'string' || !m.method.startsWith('notifications/')) return undefined;
      return 'id' in m ? failing(`${m.method} was sent with id ${JSON.stringify(m.id)}`, { expected: 'no id', actual: m }) : [];
    },
  },
  {
    id: 'base/meta/key-format',
    title: '_meta keys follow the key name format',
    requirement: requirement('base.meta.key-format', 'MUST', 'basic#meta', '_meta keys are an optional reverse-DNS style prefix and slash, then a name of letters, digits, dots, dashes and underscores'),
    looksAt: 'message with _meta (2025-06-18 and later)',
    inspect(e) {
      return metaKeysOf(e)
        ?.filter((k) => !META_KEY.test(k.key)).map((k) => ({ severity: 'fail' as const, message: `_meta key ${JSON.stringify(k.key)} at ${k.path} does not follow the key format`, expected: 'prefix/name', actual: k.key }));
    },
  },
  {
    id: 'capabilities/logging/declared',
    title: 'Log notifications only with the logging capability',
    requirement: requirement('cap.logging.declared', 'MUST', 'server/utilities/logging#capabilities', 'A server that emits notifications/message declares the logging capability'),
    looksAt: 'notifications/message',
    inspect(e, ctx) {
      const m = messageOf(e);
      if (!m || m.method !== 'notifications/message' || !ctx.capabilities) return undefined;
      return ctx.capabilities.logging !== undefined ? [] : failing('notifications/message sent without declaring the logging capability', { expected: 'capabilities.logging declared', actual: Object.keys(ctx.capabilities) });
    },
  },
  {
    id: 'schema/results',
    title: 'Every result validates against the result type of the method it answers',
    requirement: requirement('schema.results', 'MUST', 'basic#responses', 'Results have the shape the schema defines for the method they answer, in the negotiated revision'),
    covers: ['life.capabilities.shape', 'tasks.cap.shape', 'impl.serverInfo', 'tools.list.shape', 'tools.annotations.shape', 'tools.execution.shape', 'tools.call.shape', 'res.list.shape', 'res.templates.shape', 'prompts.list.shape', 'page.shape', 'comp.shape', 'content.type', 'content.text', 'content.image', 'content.audio', 'content.resource_link', 'content.embedded', 'annot.audience', 'annot.priority', 'icons.shape'],
    looksAt: 'result response',
    inspect(e) {
      const m = messageOf(e);
      if (e.kind !== 'response' || !m || !('result' in m) || !e.exchange) return undefined;
      // The initialize result arrives before the session knows its revision: judge it by the version it names.
      const named = isObject(m.result) && typeof m.result.protocolVersion === 'string' ? m.result.protocolVersion : undefined;
      const revision = e.revision ?? schemaRevision(named ?? REVISIONS[0]);
      // From 2026-07-28 on, tools/call, prompts/get and resources/read may ask for input instead (MRTR).
      const definition =
        revision === STATELESS_REVISION && isObject(m.result) && m.result.resultType === 'input_required'
          ? 'InputRequiredResult'
          : taskCreated(revision, e.exchange, m.result)
            ? 'CreateTaskResult'
            : resultDefinition(revision, e.exchange.method);
      return schemaFindings(revision, definition, m.result, `result of ${e.exchange.method}`);
    },
  },
  {
    id: 'schema/errors',
    covers: ['base.error.id-unreadable', 's2c.elicit.url-error'],
    title: 'Every error response validates against the schema',
    requirement: requirement('schema.errors', 'MUST', 'basic#responses', 'Error responses have the JSON-RPC error shape the schema defines'),
    looksAt: 'error response',
    inspect(e) {
      const m = messageOf(e);
      if (e.kind !== 'response' || !m || !('error' in m)) return undefined;
      const revision = e.revision ?? '2025-11-25';
      // An error answering unreadable input may carry id null or none (requirements §5.7), and so may the
      // body of an HTTP error status (§4.5): judge the rest.
      const value = answersUnreadable(m) || e.line.answers !== undefined ? { ...m, id: 0 } : m;
      // -32042 (2025-11-25) must list the URL elicitations it requires (s2c.elicit.url-error).
      const urlRequired = revision === '2025-11-25' && isObject(m.error) && m.error.code === -32042;
      return schemaFindings(revision, urlRequired ? 'URLElicitationRequiredError' : errorDefinition(revision), value, 'error response');
    },
  },
  {
    id: 'schema/notifications',
    covers: ['log.message.shape', 'res.updated.shape', 'prog.shape', 'tasks.status-notif'],
    title: 'Every notification validates against the schema',
    requirement: requirement('schema.notifications', 'MUST', 'basic#notifications', 'Server notifications have the shape the schema defines for their method'),
    looksAt: 'notification',
    inspect(e) {
      const m = messageOf(e);
      if (e.kind !== 'notification' || !m || typeof m.method !== 'string' || !e.revision) return undefined;
      const def = notificationDefinition(e.revision, m.method);
      return def ? schemaFindings(e.revision, def, m, m.method) : failing(`${m.method} is not a server notification in ${e.revision}`, { actual: m.method });
    },
  },
  {
    id: 'schema/server-requests',
    // ElicitRequest's schema holds the form subset (flat primitive properties) and the URL mode's required fields.
    covers: ['ping.server-initiated', 's2c.roots', 's2c.elicit.form-params', 's2c.elicit.url-params', 'jsonschema.elicitation-subset'],
    title: 'Every server-to-client request validates against the schema',
    requirement: requirement('schema.server-requests', 'MUST', 'basic#requests', 'Requests the server sends have the shape the schema defines for their method'),
    looksAt: 'server-to-client request',
    inspect(e) {
      const m = messageOf(e);
      // A 2026-07-28 server sends no requests at all: stateless/no-server-requests judges them.
      if (e.kind !== 'request' || !m || typeof m.method !== 'string' || !e.revision || e.revision === STATELESS_REVISION || m.method.startsWith('notifications/')) return undefined;
      const def = serverRequestDefinition(e.revision, m.method);
      return def ? schemaFindings(e.revision, def, m, m.method) : failing(`${m.method} is not a server-to-client request in ${e.revision}`, { actual: m.method });
    },
  },
];
