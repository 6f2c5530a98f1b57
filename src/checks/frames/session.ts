// A frame weighed against its session: what the client sent and declared, the revision negotiated, ids used before,
// and what must not leak into logs.
import { isObject } from '../../json.js';
import { requirement } from '../kit/requirement.js';
import { type FrameRule, failing, messageOf, serverRequestOf } from '../kit/frame-rule.js';
import { metaKeysOf } from './meta.js';

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
    keys: [
      'outputSchema',
      'structuredContent',
      'lastModified',
      'icons',
      'execution',
      'websiteUrl',
      'resultType',
      'ttlMs',
      'cacheScope',
    ],
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

export const SESSION_RULES: FrameRule[] = [
  {
    id: 'base/error/message-concise',
    title: 'Error messages are one short sentence',
    requirement: requirement(
      'base.error.message-concise',
      'SHOULD',
      'basic#responses',
      'An error message should be a concise single sentence',
    ),
    looksAt: 'error response',
    inspect(e) {
      const err = e.kind === 'response' && isObject(e.message?.error) ? e.message.error : undefined;
      if (!err || typeof err.message !== 'string') return undefined;
      // What the message quotes of the request (a long generated URI, a multi-line argument) is the client's text.
      const m = sentStrings(e.exchange?.params).reduce((text, sent) => text.split(sent).join(''), err.message);
      return m.includes('\n') || m.length > 300
        ? [
            {
              severity: 'warn',
              message: `error message of ${m.length} characters${m.includes('\n') ? ' over several lines' : ''}`,
              expected: 'one sentence, under 300 characters besides what it quotes of the request',
              actual: err.message.slice(0, 300),
            },
          ]
        : [];
    },
  },
  {
    id: 'base/request/id',
    title: 'Server requests carry a string or integer id, never reused',
    requirement: requirement(
      'base.request.id-type',
      'MUST',
      'basic#requests',
      'A request the server sends has a string or integer id that it has not used before in the session',
    ),
    covers: ['base.request.id-unique'],
    looksAt: 'server-to-client request',
    inspect(e) {
      const m = serverRequestOf(e);
      if (!m) return undefined;
      if (!(typeof m.id === 'string' || Number.isInteger(m.id)))
        return failing(`${m.method} request with id ${JSON.stringify(m.id)}`, {
          expected: 'a string or integer id',
          actual: m.id,
        });
      const seen = serverRequestIds.get(e.session) ?? new Set<string>();
      serverRequestIds.set(e.session, seen);
      const key = `${typeof m.id}:${m.id}`;
      if (seen.has(key))
        return failing(`${m.method} reuses request id ${JSON.stringify(m.id)}`, {
          expected: 'an id not used before in the session',
          actual: m.id,
        });
      seen.add(key);
      return [];
    },
  },
  {
    id: 'base/meta/reserved-prefix',
    title: '_meta keys do not invent names under the MCP-reserved prefixes',
    requirement: requirement(
      'base.meta.reserved-prefix',
      'SHOULD',
      'basic#meta',
      'Prefixes whose labels name modelcontextprotocol or mcp are reserved for the specification',
    ),
    looksAt: 'message with _meta (2025-06-18 and later)',
    inspect(e) {
      const keys = metaKeysOf(e);
      return keys
        ?.filter((k) => reservedPrefix(k.key, e.revision!) && !SPEC_META_KEYS.has(k.key))
        .map((k) => ({
          severity: 'warn' as const,
          message: `_meta key ${JSON.stringify(k.key)} at ${k.path} uses a reserved prefix`,
          expected: 'your own reverse-DNS prefix',
          actual: k.key,
        }));
    },
  },
  {
    id: 'lifecycle/version/respect',
    title: 'Nothing newer than the negotiated revision is sent',
    requirement: requirement(
      'life.version.respect',
      'MUST',
      'basic/lifecycle#operation',
      'Both sides respect the negotiated protocol version: no fields, content types or methods of later revisions',
    ),
    looksAt: 'message in a negotiated session',
    inspect(e) {
      const m = messageOf(e);
      const newer = e.revision ? NEWER_FIELDS[e.revision] : undefined;
      if (!m || !newer) return undefined;
      if (typeof m.method === 'string' && newer.methods.includes(m.method)) {
        return [
          {
            severity: 'warn',
            message: `${m.method} does not exist in ${e.revision}`,
            expected: `only ${e.revision} messages`,
            actual: m.method,
          },
        ];
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
      return found.map((f) => ({
        severity: 'warn' as const,
        message: `${f} is newer than the negotiated ${e.revision}`,
        expected: `only ${e.revision} fields`,
        actual: f,
      }));
    },
  },
  {
    id: 'capabilities/client/undeclared-requests',
    title: 'No sampling, elicitation or roots requests to a client that declared none',
    requirement: requirement(
      'cap.client.sampling.gate',
      'MUST',
      'basic/lifecycle#operation',
      'The server sends sampling, elicitation and roots requests only to clients that declared those capabilities',
    ),
    covers: [
      'cap.client.elicitation.gate',
      'cap.client.roots.gate',
      'cap.client.sampling.tools',
      'cap.client.sampling.context',
      's2c.gates',
    ],
    looksAt: 'server-to-client request',
    inspect(e) {
      const m = serverRequestOf(e);
      if (!m) return undefined;
      if (m.method === 'ping') return [];
      // The suite's client declares no capabilities, but in the session where the server's requests are answered.
      const declared = e.clientCapabilities ?? {};
      const problem = undeclaredRequest(m, declared);
      return problem
        ? failing(problem, {
            expected: `only ping and the requests of the declared capabilities ${JSON.stringify(declared)}`,
            actual: m.method,
          })
        : [];
    },
  },
  {
    id: 'logging/messages/no-secrets',
    title: 'Log messages carry no credentials',
    requirement: requirement(
      'log.no-secrets',
      'MUST',
      'server/utilities/logging#security',
      'Log messages must not contain credentials, secrets or private keys',
    ),
    looksAt: 'notifications/message',
    inspect(e) {
      const m = messageOf(e);
      if (m?.method !== 'notifications/message') return undefined;
      const text = JSON.stringify(m.params ?? null);
      const hit = SECRETS.find((re) => re.test(text));
      // A pattern match is a heuristic, so it warns rather than fails.
      return hit
        ? [
            {
              severity: 'warn',
              message: `a log message looks like it contains a credential (${hit.source.slice(0, 30)}…)`,
              expected: 'no secrets in logs',
              actual: '(redacted)',
            },
          ]
        : [];
    },
  },
];

/** The client capability each server→client request needs. */
const CAPABILITY_OF: Record<string, string | undefined> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

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
  if (want === 'sampling' && ('tools' in params || 'toolChoice' in params) && !cap('sampling')?.tools)
    return 'a sampling request with tools sent to a client that did not declare sampling.tools';
  if (want === 'elicitation' && params.mode === 'url' && !cap('elicitation')?.url)
    return 'a URL-mode elicitation sent to a client that did not declare elicitation.url';
  return undefined;
}
