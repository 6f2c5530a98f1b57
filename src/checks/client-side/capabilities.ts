// client-side/capabilities and client-side/tools: what the client answers when the server asks, and how it uses
// what the server offers.
import { type Difference, jsonDiff } from '../../json-diff.js';
import { isObject } from '../../json.js';
import { ELICIT_WITH_DEFAULTS } from '../../transport/test-server/conversation.js';
import type { Asked } from '../../transport/test-server/conversation.js';
import { type Outcome, fail, pass, skip, warn } from '../kit/check.js';
import { type ClientCheckDef, type ScenarioRecord, excerpt, requestsOf, where } from '../kit/client-check.js';
import { requirement } from '../kit/requirement.js';
import { SCHEMA_ECHO, SCHEMA_FOCAL } from './scenarios.js';

const INIT = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
const seqsOf = (r: ScenarioRecord, a: Asked) =>
  r.conv.frames
    .filter((f) => {
      const m = f.message as Record<string, unknown> | undefined;
      return isObject(m) && m.id === a.id;
    })
    .map((f) => f.seq);

/** Judges each answer to `method` the server asked for (while the client declared the capability). */
function answers(
  r: ScenarioRecord,
  method: string,
  declared: boolean,
  judge: (result: Record<string, unknown>, a: Asked) => string | undefined,
): Outcome {
  const asked = r.conv.asked.filter((a) => a.method === method);
  if (!declared) return skip(`${where(r)}: the client did not declare the capability`);
  if (asked.length === 0)
    return skip(`${where(r)}: not asked (the client did not ${r.scenario.asks ?? 'call the tool that asks'})`);
  for (const a of asked) {
    const proof = { transcript: excerpt(r, seqsOf(r, a)) };
    const reply = a.reply;
    if (!reply) return fail(`${where(r)}: ${method} got no response`, proof);
    if (isObject(reply.error)) continue; // the user may decline; the client said so
    const why = judge(isObject(reply.result) ? reply.result : {}, a);
    if (why) return fail(`${where(r)}: ${method} → ${why}`, { ...proof, actual: reply.result });
  }
  return pass(`${where(r)}: ${asked.length} ${method} answered well`);
}

const declares = (r: ScenarioRecord, cap: string) =>
  isObject(r.conv.capabilities) && r.conv.capabilities[cap] !== undefined;

/** What is wrong with accepted content against a flat requested schema, or undefined. */
function contentFault(content: unknown, schema: Record<string, unknown>): string | undefined {
  if (!isObject(content)) return 'an accepted elicitation has no content object';
  const props = isObject(schema.properties) ? schema.properties : {};
  for (const [key, value] of Object.entries(content)) {
    const p = props[key];
    if (!isObject(p)) return `content has ${key}, which the schema does not name`;
    const type =
      p.type === 'integer' ? Number.isInteger(value) : typeof value === (p.type === 'number' ? 'number' : p.type);
    if (!type) return `content.${key} is ${JSON.stringify(value)}, not a ${String(p.type)}`;
    if (Array.isArray(p.enum) && !p.enum.includes(value))
      return `content.${key} is not one of ${JSON.stringify(p.enum)}`;
  }
  return undefined;
}

export const CLIENT_CAPABILITY_CHECKS: ClientCheckDef[] = [
  {
    id: 'client-side/capabilities/ping',
    title: 'ping is answered with an empty result',
    requirement: requirement(
      'client-side.capabilities.ping',
      'MUST',
      'basic/utilities/ping#behavior-requirements',
      'The receiver of a ping answers promptly with an empty result',
    ),
    revisions: INIT,
    judge: (r) => {
      const pings = r.conv.asked.filter((a) => a.method === 'ping');
      if (pings.length === 0)
        return skip(`${where(r)}: not pinged (the client did not ${r.scenario.asks ?? 'call the tool that pings'})`);
      for (const a of pings)
        if (!isObject(a.reply?.result))
          return fail(`${where(r)}: ping → ${a.silent ? 'no response' : JSON.stringify(a.reply).slice(0, 200)}`, {
            transcript: excerpt(r, seqsOf(r, a)),
          });
      return pass(`${where(r)}: ping answered`);
    },
  },
  {
    id: 'client-side/capabilities/roots',
    title: 'roots/list is answered with file:// roots',
    requirement: requirement(
      'client-side.capabilities.roots',
      'MUST',
      'client/roots#root',
      'A client that declares roots answers roots/list with roots whose uri is a file:// URI',
    ),
    revisions: INIT,
    judge: (r) =>
      answers(r, 'roots/list', declares(r, 'roots'), (res) => {
        if (!Array.isArray(res.roots)) return 'result has no roots array';
        const bad = res.roots.find((x) => !isObject(x) || typeof x.uri !== 'string' || !x.uri.startsWith('file://'));
        return bad === undefined ? undefined : `root ${JSON.stringify(bad)} has no file:// uri`;
      }),
  },
  {
    id: 'client-side/capabilities/sampling',
    title: 'sampling/createMessage is answered with a CreateMessageResult',
    requirement: requirement(
      'client-side.capabilities.sampling',
      'MUST',
      'client/sampling#creating-messages',
      'A client that declares sampling answers sampling/createMessage with role, content and model (or an error)',
    ),
    revisions: INIT,
    judge: (r) =>
      answers(r, 'sampling/createMessage', declares(r, 'sampling'), (res) => {
        if (res.role !== 'assistant' && res.role !== 'user') return `role ${JSON.stringify(res.role)}`;
        if (typeof res.model !== 'string') return 'no model string';
        const blocks = Array.isArray(res.content) ? res.content : [res.content];
        return blocks.every((b) => isObject(b) && typeof b.type === 'string')
          ? undefined
          : 'content is not a content block';
      }),
  },
  {
    id: 'client-side/capabilities/elicitation',
    title: 'elicitation/create is answered with an ElicitResult whose content fits the requested schema',
    requirement: requirement(
      'client-side.capabilities.elicitation',
      'MUST',
      'client/elicitation#response-actions',
      'A client that declares elicitation answers with action accept, decline or cancel; accepted content validates against requestedSchema',
    ),
    revisions: ['2025-11-25', '2025-06-18'],
    judge: (r) =>
      answers(r, 'elicitation/create', declares(r, 'elicitation'), (res) => {
        if (!['accept', 'decline', 'cancel'].includes(res.action as string))
          return `action ${JSON.stringify(res.action)}`;
        return res.action === 'accept' ? contentFault(res.content, ELICIT_WITH_DEFAULTS.requestedSchema) : undefined;
      }),
  },
  {
    id: 'client-side/capabilities/elicitation-defaults',
    title: 'An accepted form carries the defaults of fields the user left alone',
    requirement: requirement(
      'client-side.capabilities.elicitation-defaults',
      'SHOULD',
      'client/elicitation#requested-schema',
      "Clients use a field's default to pre-fill the form, so an accepted form without user input carries the defaults",
    ),
    revisions: ['2025-11-25'],
    scenarios: ['elicitation-sep1034-client-defaults'],
    judge: (r) => {
      const a = r.conv.asked.find((x) => x.method === 'elicitation/create');
      if (!a?.reply) return skip(`${where(r)}: the client did not ${r.scenario.asks}`);
      const res = isObject(a.reply?.result) ? a.reply.result : {};
      if (res.action !== 'accept')
        return skip(`${where(r)}: the client answered ${JSON.stringify(res.action ?? a.reply?.error)}, not accept`);
      const content = isObject(res.content) ? res.content : {};
      const props = ELICIT_WITH_DEFAULTS.requestedSchema.properties as Record<string, { default: unknown }>;
      const missing = Object.entries(props)
        .filter(([k, p]) => content[k] !== p.default)
        .map(([k]) => k);
      return missing.length === 0
        ? pass(`${where(r)}: every default applied`)
        : warn(`${where(r)}: ${missing.join(', ')} not at their defaults`, {
            actual: content,
            transcript: excerpt(r, seqsOf(r, a)),
          });
    },
  },
  {
    id: 'client-side/capabilities/undeclared-answered',
    title: 'A request for a capability the client did not declare gets an error, not silence',
    requirement: requirement(
      'client-side.capabilities.undeclared-answered',
      'MUST',
      'basic#responses',
      'Every request gets a response: one for a capability the client did not declare gets an error (method not found)',
    ),
    revisions: INIT,
    judge: (r) => {
      if (declares(r, 'roots')) return skip(`${where(r)}: the client declared roots`);
      const a = r.conv.asked.find((x) => x.method === 'roots/list');
      if (!a)
        return skip(`${where(r)}: not asked (the client did not ${r.scenario.asks ?? 'call the tool that asks'})`);
      const proof = { transcript: excerpt(r, seqsOf(r, a)) };
      if (!a.reply) return fail(`${where(r)}: roots/list (not declared) got no response`, proof);
      if (isObject(a.reply?.error))
        return pass(`${where(r)}: roots/list (not declared) → error ${String(a.reply.error.code)}`);
      return warn(`${where(r)}: roots/list (not declared) got a result, expected an error`, proof);
    },
  },
  {
    id: 'client-side/tools/listed-only',
    title: 'Only tools the server listed are called, with arguments valid against their inputSchema',
    // No spec sentence obliges a client to call only listed tools or to send arguments that fit the inputSchema
    // (Tools › Calling Tools describes the request; the server reports unknown tools and invalid arguments). So the
    // check notes what it saw and never warns; MAY is the weakest level a requirement has.
    requirement: requirement(
      'client-side.tools.listed-only',
      'MAY',
      'server/tools#calling-tools',
      "Noted, not required: the client calls tools by a name tools/list returned, with arguments that fit that tool's inputSchema",
    ),
    judge: (r) => {
      const calls = requestsOf(r).filter((m) => m.method === 'tools/call');
      if (calls.length === 0)
        return skip(`${where(r)}: the client called no tool${r.scenario.asks ? ` (asked to ${r.scenario.asks})` : ''}`);
      const notes: string[] = [];
      for (const c of calls) {
        const p = isObject(c.params) ? c.params : {};
        const tool = r.scenario.tools.find((t) => t.name === p.name);
        if (!tool) notes.push(`called ${JSON.stringify(p.name)}, which was not listed`);
        const why = tool && argumentsFault(p.arguments, tool.inputSchema);
        if (why) notes.push(`${tool.name}: ${why}`);
      }
      return notes.length > 0
        ? pass(`${where(r)}: note (no spec sentence requires otherwise): ${notes.join('; ')}`)
        : pass(`${where(r)}: ${calls.length} calls of listed tools with valid arguments`);
    },
  },
  {
    id: 'client-side/tools/no-network-ref',
    title: 'A $ref to a network URL in a tool schema is not fetched',
    requirement: requirement(
      'client-side.tools.no-network-ref',
      'MUST',
      'basic#json-schema-usage',
      'Clients do not dereference a $ref to a network URL in a schema the server sent',
      '2026-07-28',
    ),
    scenarios: ['json-schema-ref-no-deref'],
    transport: 'http',
    judge: (r) => {
      if (!requestsOf(r).some((m) => m.method === 'tools/list'))
        return skip(`${where(r)}: the client did not list tools`);
      const hits = r.http?.state.canaryHits ?? 0;
      return hits === 0
        ? pass(`${where(r)}: the remote $ref was not fetched`)
        : fail(`${where(r)}: the remote $ref was fetched ${hits} time(s)`);
    },
  },
  {
    id: 'client-side/tools/schema-preserved',
    title: "A tool's inputSchema is kept as served: every 2020-12 keyword survives the client's tool model",
    // No spec sentence obliges a client to keep a tool's inputSchema unchanged: the spec makes 2020-12 the default
    // dialect and lets inputSchema use any of its keywords, and the official scenario is not scored. So the check
    // notes what the client dropped or changed and never warns.
    requirement: requirement(
      'client-side.tools.schema-preserved',
      'MAY',
      'server/tools#tool',
      "Noted, not required: the client keeps a tool's inputSchema as served, every JSON Schema 2020-12 keyword included",
      '2026-07-28',
    ),
    revisions: ['2025-11-25', '2026-07-28'],
    scenarios: ['json-schema-2020-12-preservation'],
    judge: (r) => {
      const echoed = r.conv.frames.flatMap((f) => {
        const m = f.dir === 'in' && isObject(f.message) ? f.message : {};
        const p = isObject(m.params) ? m.params : {};
        if (m.method !== 'tools/call' || p.name !== SCHEMA_ECHO.name) return [];
        return [{ seq: f.seq, schema: isObject(p.arguments) ? p.arguments.schema : undefined }];
      });
      if (echoed.length === 0) return skip(`${where(r)}: the client did not ${r.scenario.asks}`);
      const served = SCHEMA_FOCAL.inputSchema;
      const notes = new Set<string>();
      for (const { schema } of echoed)
        if (!isObject(schema)) notes.add(`${SCHEMA_ECHO.name} got no schema object`);
        else for (const d of jsonDiff(served, schema, 20)) notes.add(difference(d));
      if (notes.size === 0) return pass(`${where(r)}: ${SCHEMA_FOCAL.name}'s inputSchema came back as served`);
      return pass(
        `${where(r)}: note (no spec sentence requires a client to keep an inputSchema as served): ${[...notes].join('; ')}`,
        {
          expected: served,
          actual: echoed[echoed.length - 1]!.schema,
          transcript: excerpt(
            r,
            echoed.map((e) => e.seq),
          ),
        },
      );
    },
  },
];

/** One keyword the echoed schema lost, gained or altered, by its JSON Pointer in the served schema. */
function difference(d: Difference): string {
  if (d.kind === 'missing') return `${d.path} dropped`;
  if (d.kind === 'extra') return `${d.path} added`;
  return `${d.path} changed (${JSON.stringify(d.expected)} → ${JSON.stringify(d.actual)})`;
}

/** What is wrong with a call's arguments against an inputSchema's required and typed properties, or undefined. */
function argumentsFault(args: unknown, schema: Record<string, unknown>): string | undefined {
  if (args !== undefined && !isObject(args)) return 'arguments is not an object';
  const given = isObject(args) ? args : {};
  const props = isObject(schema.properties) ? schema.properties : {};
  for (const key of Array.isArray(schema.required) ? schema.required : [])
    if (!(key in given)) return `required argument ${String(key)} missing`;
  for (const [key, value] of Object.entries(given)) {
    const p = props[key];
    if (
      isObject(p) &&
      typeof p.type === 'string' &&
      !(p.type === 'integer' ? Number.isInteger(value) : typeof value === p.type)
    )
      return `argument ${key} is ${JSON.stringify(value)}, not a ${p.type}`;
  }
  return undefined;
}
