// Schema validity of every result, error, notification and server-to-client request, in the negotiated revision.
import {
  REVISIONS,
  STATELESS_REVISION,
  errorDefinition,
  notificationDefinition,
  resultDefinition,
  serverRequestDefinition,
  validate,
} from '../../schema/validators.js';
import { schemaRevision } from '../../discovery/discover.js';
import type { Exchange } from '../../session/session.js';
import { isObject } from '../../json.js';
import { requirement } from '../kit/requirement.js';
import {
  type Finding,
  type FrameRule,
  answersUnreadable,
  failing,
  messageOf,
  serverRequestOf,
} from '../kit/frame-rule.js';

function schemaFindings(
  revision: string | undefined,
  definition: string | undefined,
  value: unknown,
  what: string,
): Finding[] | undefined {
  if (!revision || !definition) return undefined;
  const r = validate(revision, definition, value);
  if (r.ok) return [];
  // `format` is an annotation in JSON Schema 2020-12, which the official schemas use: alone, it breaks no MUST.
  if (r.formats)
    return [
      {
        severity: 'warn',
        message: `${what} does not validate against ${definition} (${revision}) only by format ${r.formats.map((f) => JSON.stringify(f)).join(', ')} (an annotation of JSON Schema 2020-12)`,
        expected: `a valid ${definition}`,
        actual: r.errors,
      },
    ];
  return failing(`${what} does not validate against ${definition} (${revision})`, {
    expected: `a valid ${definition}`,
    actual: r.errors,
  });
}

/** A task-augmented tools/call (2025-11-25) answered with a task: it is judged as a CreateTaskResult. */
function taskCreated(revision: string, exchange: Exchange, result: unknown): boolean {
  if (exchange.method !== 'tools/call' || !isObject(result)) return false;
  // 2026-07-28: the Tasks extension marks a task handle with resultType "task".
  if (revision === STATELESS_REVISION) return result.resultType === 'task';
  return revision === '2025-11-25' && isObject(exchange.params) && isObject(exchange.params.task) && 'task' in result;
}

export const SCHEMA_RULES: FrameRule[] = [
  {
    id: 'schema/results',
    title: 'Every result validates against the result type of the method it answers',
    requirement: requirement(
      'schema.results',
      'MUST',
      'basic#responses',
      'Results have the shape the schema defines for the method they answer, in the negotiated revision',
    ),
    covers: [
      'life.capabilities.shape',
      'tasks.cap.shape',
      'impl.serverInfo',
      'tools.list.shape',
      'tools.annotations.shape',
      'tools.execution.shape',
      'tools.call.shape',
      'res.list.shape',
      'res.templates.shape',
      'prompts.list.shape',
      'page.shape',
      'comp.shape',
      'content.type',
      'content.text',
      'content.image',
      'content.audio',
      'content.resource_link',
      'content.embedded',
      'annot.audience',
      'annot.priority',
      'icons.shape',
      'skills.list.result-type',
      'skills.list.cacheable',
      'skills.entry.shape',
      'skills.digest.format',
    ],
    looksAt: 'result response',
    inspect(e) {
      const m = messageOf(e);
      if (e.kind !== 'response' || !m || !('result' in m) || !e.exchange) return undefined;
      // The initialize result arrives before the session knows its revision: judge it by the version it names.
      const named =
        isObject(m.result) && typeof m.result.protocolVersion === 'string' ? m.result.protocolVersion : undefined;
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
    requirement: requirement(
      'schema.errors',
      'MUST',
      'basic#responses',
      'Error responses have the JSON-RPC error shape the schema defines',
    ),
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
      return schemaFindings(
        revision,
        urlRequired ? 'URLElicitationRequiredError' : errorDefinition(revision),
        value,
        'error response',
      );
    },
  },
  {
    id: 'schema/notifications',
    covers: ['log.message.shape', 'res.updated.shape', 'prog.shape', 'tasks.status-notif'],
    title: 'Every notification validates against the schema',
    requirement: requirement(
      'schema.notifications',
      'MUST',
      'basic#notifications',
      'Server notifications have the shape the schema defines for their method',
    ),
    looksAt: 'notification',
    inspect(e) {
      const m = messageOf(e);
      if (e.kind !== 'notification' || !m || typeof m.method !== 'string' || !e.revision) return undefined;
      const def = notificationDefinition(e.revision, m.method);
      return def
        ? schemaFindings(e.revision, def, m, m.method)
        : failing(`${m.method} is not a server notification in ${e.revision}`, { actual: m.method });
    },
  },
  {
    id: 'schema/server-requests',
    // ElicitRequest's schema holds the form subset (flat primitive properties) and the URL mode's required fields.
    covers: [
      'ping.server-initiated',
      's2c.roots',
      's2c.elicit.form-params',
      's2c.elicit.url-params',
      'jsonschema.elicitation-subset',
    ],
    title: 'Every server-to-client request validates against the schema',
    requirement: requirement(
      'schema.server-requests',
      'MUST',
      'basic#requests',
      'Requests the server sends have the shape the schema defines for their method',
    ),
    looksAt: 'server-to-client request',
    inspect(e) {
      const m = serverRequestOf(e);
      if (!m || !e.revision) return undefined;
      const def = serverRequestDefinition(e.revision, m.method);
      return def
        ? schemaFindings(e.revision, def, m, m.method)
        : failing(`${m.method} is not a server-to-client request in ${e.revision}`, { actual: m.method });
    },
  },
];
