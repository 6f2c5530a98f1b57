// Validators over the project's own MCP schemas (schema/mcp/<revision>.schema.json).
import { readFileSync } from 'node:fs';
import _Ajv2020 from 'ajv/dist/2020.js';
import _addFormats from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { exportName, precompiledModule } from './precompiled.js';

// ajv and ajv-formats are CommonJS with `exports.default`; under NodeNext the default import is the module object.
const Ajv2020 = _Ajv2020.default;
const addFormats = _addFormats.default;

export { REVISIONS, STATELESS_REVISION, SCHEMA_REVISIONS, type Revision, isRevision } from './revisions.js';
import { type Revision, SCHEMA_REVISIONS, STATELESS_REVISION, isRevision } from './revisions.js';

/**
 * A value's shape. `formats`: the value is valid but for these string formats (`uri`, `uri-template`). `format` is an
 * annotation in JSON Schema 2020-12, so such a finding alone breaks no MUST; `byte` is left out, as the prose makes
 * it one ("Binary data MUST be properly encoded", resources › Security Considerations).
 */
export type ValidationResult = { ok: true } | { ok: false; errors: string[]; formats?: string[] };

type SchemaDocument = { $id: string; $defs: Record<string, unknown> };

// Two levels below the package root both as src/schema/*.ts and as dist/schema/*.js.
const schemaUrl = (revision: Revision) => new URL(`../../schema/mcp/${revision}.schema.json`, import.meta.url);

const documents = new Map<Revision, SchemaDocument>();
/** Each loaded schema file, to tell whether the precompiled validators were made from it. */
const texts = new Map<Revision, string>();
/** Documents added to the Ajv instance (only when a validator must be compiled at run time). */
const added = new Set<Revision>();
/** The 2026-07-28 schema defines only what changed and references the unchanged definitions of 2025-11-25. */
const REFERENCED: Partial<Record<Revision, Revision>> = { [STATELESS_REVISION]: '2025-11-25' };
let ajv: InstanceType<typeof Ajv2020> | undefined;
/** An instance that ignores `format`, compiled only for values that failed (to tell a format finding alone). */
let formatless: { ajv: InstanceType<typeof Ajv2020>; added: Set<Revision> } | undefined;

function revisionOf(revision: string): Revision {
  if (!isRevision(revision))
    throw new Error(`unknown MCP schema revision "${revision}" (known: ${SCHEMA_REVISIONS.join(', ')})`);
  return revision;
}

/** The parsed schema of a revision (loaded once; nothing is compiled here). */
export function schemaDocument(revision: string): SchemaDocument {
  const r = revisionOf(revision);
  let doc = documents.get(r);
  if (!doc) {
    const text = readFileSync(schemaUrl(r), 'utf8');
    doc = JSON.parse(text) as SchemaDocument;
    documents.set(r, doc);
    texts.set(r, text);
    const base = REFERENCED[r];
    if (base) schemaDocument(base);
  }
  return doc;
}

/** The Ajv instance with the revision's schema (and the one it references) added, for compiling at run time. */
function ajvWith(r: Revision): InstanceType<typeof Ajv2020> {
  ajv ??= createAjv();
  if (!added.has(r)) {
    added.add(r);
    ajv.addSchema(schemaDocument(r));
    const base = REFERENCED[r];
    if (base) ajvWith(base);
  }
  return ajv;
}

// Validators generated at build time (Ajv standalone code, same options; see precompiled.ts), used only when made
// from the very schema files loaded now; otherwise (from src/, or stale) Ajv compiles at run time.
const precompiled = new Map<Revision, Record<string, ValidateFunction | undefined> | undefined>();

function precompiledOf(r: Revision): Record<string, ValidateFunction | undefined> | undefined {
  if (!precompiled.has(r)) {
    const base = REFERENCED[r];
    precompiled.set(r, precompiledModule(r, [texts.get(r)!, ...(base ? [texts.get(base)!] : [])]));
  }
  return precompiled.get(r);
}

function createAjv() {
  const instance = new Ajv2020({ allowUnionTypes: true, allErrors: true });
  addFormats(instance);
  return instance;
}

/** Names of every definition in a revision's schema. */
export const definitionNames = (revision: string): string[] => Object.keys(schemaDocument(revision).$defs);

export const hasDefinition = (revision: string, definition: string): boolean =>
  isRevision(revision) && Object.hasOwn(schemaDocument(revision).$defs, definition);

/** The compiled validator of one definition; compiled on first use, then cached by Ajv. */
export function validator(revision: string, definition: string): ValidateFunction {
  const doc = schemaDocument(revision);
  if (!Object.hasOwn(doc.$defs, definition)) throw new Error(`no definition "${definition}" in the ${revision} schema`);
  const r = revision as Revision;
  const ready = precompiledOf(r)?.[exportName(definition)];
  if (ready) return ready;
  const fn = ajvWith(r).getSchema(`${doc.$id}#/$defs/${definition}`);
  if (!fn) throw new Error(`could not compile ${definition} (${revision})`);
  return fn;
}

/**
 * Whether a validation found the shape broken: not for a format finding alone, which the schema rules report as a
 * warning on the same frame (see ValidationResult).
 */
export const shapeBroken = (r: ValidationResult): r is { ok: false; errors: string[] } =>
  !r.ok && r.formats === undefined;

/** Validates a value against one definition of a revision. Throws on an unknown revision or definition. */
export function validate(revision: string, definition: string, value: unknown, maxErrors = 8): ValidationResult {
  const fn = validator(revision, definition);
  if (fn(value)) return { ok: true };
  const errors = fn.errors ?? [];
  const found = errors.filter((e) => e.keyword === 'format');
  if (
    found.length > 0 &&
    found.every((e) => ANNOTATION_FORMATS.has(String(e.params.format))) &&
    validIgnoringFormats(revision as Revision, definition, value)
  ) {
    return {
      ok: false,
      errors: formatErrors(found, maxErrors),
      formats: [...new Set(found.map((e) => String(e.params.format)))],
    };
  }
  return { ok: false, errors: formatErrors(discriminated(revision as Revision, value, errors), maxErrors) };
}

/** Formats whose finding alone is no failure (see ValidationResult). */
const ANNOTATION_FORMATS = new Set(['uri', 'uri-template']);

function validIgnoringFormats(r: Revision, definition: string, value: unknown): boolean {
  formatless ??= { ajv: new Ajv2020({ allowUnionTypes: true, validateFormats: false }), added: new Set() };
  for (const rev of [r, REFERENCED[r]].filter((x): x is Revision => x !== undefined && !formatless!.added.has(x))) {
    formatless.added.add(rev);
    formatless.ajv.addSchema(schemaDocument(rev));
  }
  const fn = formatless.ajv.getSchema(`${schemaDocument(r).$id}#/$defs/${definition}`);
  return fn !== undefined && fn(value) === true;
}

/** The definitions whose `type` property is the constant `type` (content blocks, references…), in a revision and the one it references. */
function definitionsTyped(r: Revision, type: string): { revision: Revision; name: string }[] {
  const found = new Map<string, Revision>();
  for (const rev of [REFERENCED[r], r].filter((x): x is Revision => x !== undefined)) {
    for (const [name, def] of Object.entries(schemaDocument(rev).$defs)) {
      const t = (def as { properties?: { type?: { const?: unknown } } }).properties?.type?.const;
      if (t === type) found.set(name, rev);
    }
  }
  return [...found].map(([name, revision]) => ({ name, revision }));
}

const valueAt = (root: unknown, pointer: string): unknown =>
  pointer
    .split('/')
    .slice(1)
    .reduce<unknown>(
      (v, k) =>
        typeof v === 'object' && v !== null
          ? (v as Record<string, unknown>)[k.replace(/~1/g, '/').replace(/~0/g, '~')]
          : undefined,
      root,
    );

/**
 * The errors of a union (anyOf / oneOf) whose value names its `type`: those of the one definition with that `type`
 * instead of every branch's (the branches whose `type` did not match say only that), nested unions likewise.
 */
function discriminated(r: Revision, value: unknown, errors: ErrorObject[]): ErrorObject[] {
  let out = errors;
  const unions = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .sort((a, b) => a.instancePath.length - b.instancePath.length);
  const done: string[] = [];
  for (const union of unions) {
    const at = union.instancePath;
    if (done.some((d) => at === d || at.startsWith(`${d}/`))) continue;
    const type = (valueAt(value, at) as { type?: unknown } | undefined)?.type;
    if (typeof type !== 'string' || !errors.some((e) => e.keyword === 'const' && e.instancePath === `${at}/type`))
      continue;
    const candidates = definitionsTyped(r, type);
    if (candidates.length !== 1) continue;
    const fn = validator(candidates[0].revision, candidates[0].name);
    const inner = valueAt(value, at);
    if (fn(inner)) continue; // that definition is not a branch of this union
    const branch = discriminated(candidates[0].revision, inner, fn.errors ?? []).map((e) => ({
      ...e,
      instancePath: `${at}${e.instancePath}`,
    }));
    out = [...out.filter((e) => e.instancePath !== at && !e.instancePath.startsWith(`${at}/`)), ...branch];
    done.push(at);
  }
  return out;
}

/** Ajv errors as "path message" lines, deduplicated and bounded. */
export function formatErrors(errors: ErrorObject[] | null | undefined, max = 8): string[] {
  const all = errors ?? [];
  // In a union (anyOf over content blocks, notifications…) every branch reports its own `type`/`method`
  // constant; one "must be one of" line per path says it better, and it goes first.
  const constants = new Map<string, unknown[]>();
  for (const e of all)
    if (e.keyword === 'const')
      constants.set(e.instancePath, [...(constants.get(e.instancePath) ?? []), e.params.allowedValue]);
  const merged = [...constants].map(([path, values]) =>
    values.length > 1
      ? `${path || '/'} must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`
      : `${path || '/'} must be ${JSON.stringify(values[0])}`,
  );
  const lines = [...new Set([...merged, ...all.filter((e) => e.keyword !== 'const').map(describe)])];
  return lines.length > max ? [...lines.slice(0, max), `… and ${lines.length - max} more`] : lines;
}

function describe(e: ErrorObject): string {
  const at = e.instancePath || '/';
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'enum')
    return `${at} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (e.keyword === 'required') return `${at} must have property "${String(p.missingProperty)}"`;
  return `${at} ${e.message ?? e.keyword}`;
}

// ---- which definition a message is checked against

const since = (revision: string, first: Revision) => isRevision(revision) && revision >= first;
const stateless = (revision: string) => revision === STATELESS_REVISION;

const RESULTS: Record<string, string> = {
  initialize: 'InitializeResult',
  ping: 'EmptyResult',
  'tools/list': 'ListToolsResult',
  // A task-augmented tools/call (2025-11-25) answers with CreateTaskResult instead.
  'tools/call': 'CallToolResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'resources/subscribe': 'EmptyResult',
  'resources/unsubscribe': 'EmptyResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'completion/complete': 'CompleteResult',
  'logging/setLevel': 'EmptyResult',
};
// 2026-07-28: no initialize, ping, logging/setLevel, subscribe or tasks (requirements §2.4).
const RESULTS_07: Record<string, string> = {
  'server/discover': 'DiscoverResult',
  'subscriptions/listen': 'SubscriptionsListenResult',
  ...Object.fromEntries(
    Object.entries(RESULTS).filter(([, def]) => def !== 'InitializeResult' && def !== 'EmptyResult'),
  ),
};
/** The methods of the Tasks extension (io.modelcontextprotocol/tasks) on 2026-07-28; tasks/update and tasks/cancel are acknowledged with an empty result. */
const TASK_EXTENSION_RESULTS: Record<string, string> = {
  'tasks/get': 'GetTaskResult',
  'tasks/update': 'EmptyResult',
  'tasks/cancel': 'EmptyResult',
};
/** The methods of the Skills extension (io.modelcontextprotocol/skills), specified against 2026-07-28. */
const SKILLS_EXTENSION_RESULTS: Record<string, string> = {
  'skills/list': 'ListSkillsResult',
  'skills/get': 'GetSkillResult',
  'resources/directory/read': 'ReadResourceDirectoryResult',
};
const TASK_RESULTS: Record<string, string> = {
  'tasks/get': 'GetTaskResult',
  'tasks/result': 'GetTaskPayloadResult',
  'tasks/list': 'ListTasksResult',
  'tasks/cancel': 'CancelTaskResult',
};

const NOTIFICATIONS: Record<string, string> = {
  'notifications/progress': 'ProgressNotification',
  'notifications/message': 'LoggingMessageNotification',
  'notifications/resources/updated': 'ResourceUpdatedNotification',
  'notifications/resources/list_changed': 'ResourceListChangedNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/prompts/list_changed': 'PromptListChangedNotification',
  'notifications/cancelled': 'CancelledNotification',
};
const NOTIFICATIONS_07: Record<string, string> = {
  'notifications/progress': 'ProgressNotification',
  'notifications/message': 'LoggingMessageNotification',
  // On a subscriptions/listen stream.
  'notifications/subscriptions/acknowledged': 'SubscriptionsAcknowledgedNotification',
  'notifications/resources/updated': 'ResourceUpdatedNotification',
  'notifications/resources/list_changed': 'ResourceListChangedNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/prompts/list_changed': 'PromptListChangedNotification',
  'notifications/cancelled': 'CancelledNotification',
};
const NOTIFICATIONS_11: Record<string, string> = {
  'notifications/tasks/status': 'TaskStatusNotification',
  'notifications/elicitation/complete': 'ElicitationCompleteNotification',
};

const SERVER_REQUESTS: Record<string, string> = {
  ping: 'PingRequest',
  'sampling/createMessage': 'CreateMessageRequest',
  'roots/list': 'ListRootsRequest',
};
const SERVER_REQUESTS_11: Record<string, string> = {
  'tasks/get': 'GetTaskRequest',
  'tasks/result': 'GetTaskPayloadRequest',
  'tasks/list': 'ListTasksRequest',
  'tasks/cancel': 'CancelTaskRequest',
};

const lookup = (table: Record<string, string>, method: string) =>
  Object.hasOwn(table, method) ? table[method] : undefined;

/** The result definition for a response to a client request `method`, or undefined when the revision has no such method. */
export function resultDefinition(revision: string, method: string): string | undefined {
  if (!isRevision(revision)) return undefined;
  if (stateless(revision))
    return (
      lookup(RESULTS_07, method) ?? lookup(TASK_EXTENSION_RESULTS, method) ?? lookup(SKILLS_EXTENSION_RESULTS, method)
    );
  return lookup(RESULTS, method) ?? (since(revision, '2025-11-25') ? lookup(TASK_RESULTS, method) : undefined);
}

/** The definition of a server notification (whole frame), or undefined when the server may not send `method`. */
export function notificationDefinition(revision: string, method: string): string | undefined {
  if (!isRevision(revision)) return undefined;
  if (stateless(revision))
    return (
      lookup(NOTIFICATIONS_07, method) ?? (method === 'notifications/tasks' ? 'TaskStatusNotification' : undefined)
    );
  return (
    lookup(NOTIFICATIONS, method) ?? (since(revision, '2025-11-25') ? lookup(NOTIFICATIONS_11, method) : undefined)
  );
}

/** The definition of a server→client request (whole frame), or undefined when the server may not send `method`. */
export function serverRequestDefinition(revision: string, method: string): string | undefined {
  // A 2026-07-28 server never sends requests: it answers with an InputRequiredResult instead.
  if (!isRevision(revision) || stateless(revision)) return undefined;
  if (method === 'elicitation/create') return since(revision, '2025-06-18') ? 'ElicitRequest' : undefined;
  return (
    lookup(SERVER_REQUESTS, method) ?? (since(revision, '2025-11-25') ? lookup(SERVER_REQUESTS_11, method) : undefined)
  );
}

/** The definition of a whole error response frame: the id became optional in 2025-11-25. */
export function errorDefinition(revision: string): string {
  return since(revision, '2025-11-25') ? 'JSONRPCErrorResponse' : 'JSONRPCError';
}

// ---- the client's half: what a client sends, checked by client-side/frames/schema

const CLIENT_REQUESTS: Record<string, string> = {
  initialize: 'InitializeRequest',
  ping: 'PingRequest',
  'resources/list': 'ListResourcesRequest',
  'resources/templates/list': 'ListResourceTemplatesRequest',
  'resources/read': 'ReadResourceRequest',
  'resources/subscribe': 'SubscribeRequest',
  'resources/unsubscribe': 'UnsubscribeRequest',
  'prompts/list': 'ListPromptsRequest',
  'prompts/get': 'GetPromptRequest',
  'tools/list': 'ListToolsRequest',
  'tools/call': 'CallToolRequest',
  'logging/setLevel': 'SetLevelRequest',
  'completion/complete': 'CompleteRequest',
};
/** 2026-07-28: no initialize, ping, logging/setLevel or subscribe; server/discover and subscriptions/listen instead. */
const CLIENT_REQUESTS_07: Record<string, string> = {
  'server/discover': 'DiscoverRequest',
  'subscriptions/listen': 'SubscriptionsListenRequest',
  ...Object.fromEntries(
    Object.entries(CLIENT_REQUESTS).filter(
      ([method]) =>
        !['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe'].includes(method),
    ),
  ),
};
const CLIENT_NOTIFICATIONS: Record<string, string> = {
  'notifications/cancelled': 'CancelledNotification',
  'notifications/initialized': 'InitializedNotification',
  'notifications/progress': 'ProgressNotification',
  'notifications/roots/list_changed': 'RootsListChangedNotification',
};
/** The results a client answers the server's requests with. */
const CLIENT_RESULTS: Record<string, string> = {
  ping: 'EmptyResult',
  'sampling/createMessage': 'CreateMessageResult',
  'roots/list': 'ListRootsResult',
};

/** The definition of a client request (whole frame), or undefined when the revision defines no such client request. */
export function clientRequestDefinition(revision: string, method: string): string | undefined {
  if (!isRevision(revision)) return undefined;
  if (stateless(revision)) return lookup(CLIENT_REQUESTS_07, method);
  // tasks/* the client sends to poll the server's tasks: the same requests a server sends to poll the client's.
  return (
    lookup(CLIENT_REQUESTS, method) ?? (since(revision, '2025-11-25') ? lookup(SERVER_REQUESTS_11, method) : undefined)
  );
}

/** The definition of a client notification (whole frame), or undefined when the revision defines no such one. */
export function clientNotificationDefinition(revision: string, method: string): string | undefined {
  if (!isRevision(revision)) return undefined;
  // On the stateless wire a client only cancels: nothing is initialized, and the server sends no requests.
  if (stateless(revision)) return method === 'notifications/cancelled' ? 'CancelledNotification' : undefined;
  if (method === 'notifications/tasks/status' && since(revision, '2025-11-25')) return 'TaskStatusNotification';
  return lookup(CLIENT_NOTIFICATIONS, method);
}

/**
 * The result definition for a client's answer to the server's request `method`; `task`: the request was
 * task-augmented (2025-11-25), so the answer is a CreateTaskResult. Undefined when the revision has no such request.
 */
export function clientResultDefinition(revision: string, method: string, task = false): string | undefined {
  if (!isRevision(revision) || stateless(revision)) return undefined;
  if (task && since(revision, '2025-11-25')) return 'CreateTaskResult';
  if (method === 'elicitation/create') return since(revision, '2025-06-18') ? 'ElicitResult' : undefined;
  return lookup(CLIENT_RESULTS, method) ?? (since(revision, '2025-11-25') ? lookup(TASK_RESULTS, method) : undefined);
}
