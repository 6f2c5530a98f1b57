import { compileToolSchema } from '../schema/tool-schemas.js';
import { LISTS } from '../discovery/discover.js';
import type { Item } from '../discovery/profile.js';
import { expectCode } from './base.js';
import { type CheckContext, type CheckDef, type Outcome, describeReply, errorOf, fail, pass, requirement, resultOf, skip, warn } from './check.js';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const UNKNOWN_URI = 'mcp-conformance://does-not-exist/resource';
const INVALID_CURSOR = '!conformance-invalid-cursor!';

/** A name that is certainly not in `items` (deterministic, so runs are comparable). */
function unlistedName(base: string, items: Item[]): string {
  const names = new Set(items.map((i) => i.name));
  let name = base;
  for (let n = 2; names.has(name); n++) name = `${base}-${n}`;
  return name;
}

function requires(ctx: CheckContext, capability: string): Outcome | undefined {
  return ctx.profile.capabilities[capability] === undefined ? skip(`the server does not declare the ${capability} capability`) : undefined;
}

/** Worst of several outcomes (fail > warn > pass), with the messages of the ones that matter. */
function worst(outcomes: Outcome[]): Outcome {
  for (const status of ['fail', 'warn'] as const) {
    const bad = outcomes.filter((o) => o.status === status);
    if (bad.length > 0) return { ...bad[0], message: bad.map((o) => o.message).join('; ') };
  }
  return pass(outcomes.map((o) => o.message).join('; '));
}

function schemaOutcome(tools: Item[], field: 'inputSchema' | 'outputSchema'): Outcome {
  const bad: { tool: unknown; problem: string }[] = [];
  const unknownDialect: { tool: unknown; problem: string }[] = [];
  let seen = 0;
  for (const tool of tools) {
    if (!(field in tool)) {
      if (field === 'inputSchema') bad.push({ tool: tool.name, problem: 'no inputSchema' });
      continue;
    }
    seen++;
    const schema = tool[field] as Record<string, unknown> | null;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || schema.type !== 'object') {
      bad.push({ tool: tool.name, problem: `${field} is ${JSON.stringify(schema)?.slice(0, 80)}, not an object schema` });
      continue;
    }
    const compiled = compileToolSchema(schema);
    if (!compiled.ok) (compiled.reason === 'unsupported-dialect' ? unknownDialect : bad).push({ tool: tool.name, problem: compiled.error });
  }
  const expected = 'a JSON Schema with type "object" that compiles';
  if (bad.length > 0) return fail(`${bad.length} tool(s) have an invalid ${field}`, { expected, actual: bad });
  // A $schema naming a dialect this validator does not know may still be valid (jsonschema.explicit).
  if (unknownDialect.length > 0) return warn(`${unknownDialect.length} ${field}(s) declare a dialect that could not be checked`, { expected, actual: unknownDialect });
  if (seen === 0) return skip(`no tool declares an ${field}`);
  return pass(`${seen} ${field}(s) are object schemas that compile`);
}

export const FEATURE_CHECKS: CheckDef[] = [
  {
    id: 'tools/names/format',
    title: 'Tool names are 1–128 characters of A–Z, a–z, 0–9, _ - .',
    requirement: requirement('tools.name.format', 'SHOULD', 'server/tools#tool-names', 'Tool names should be 1 to 128 characters long and use only ASCII letters, digits, underscore, hyphen and dot'),
    async run(ctx) {
      const none = requires(ctx, 'tools');
      if (none) return none;
      if (ctx.profile.revision < '2025-11-25') return skip(`tool-name rules arrived in 2025-11-25; the server negotiated ${ctx.profile.protocolVersion}`);
      const bad = ctx.profile.tools.map((t) => t.name).filter((n) => typeof n !== 'string' || !TOOL_NAME.test(n));
      if (bad.length > 0) return warn(`${bad.length} tool name(s) break the naming rules`, { expected: TOOL_NAME.source, actual: bad });
      return ctx.profile.tools.length === 0 ? skip('the server lists no tools') : pass(`${ctx.profile.tools.length} tool names follow the rules`);
    },
  },
  {
    id: 'tools/names/unique',
    title: 'Tool names are unique across all pages',
    requirement: requirement('tools.name.unique', 'SHOULD', 'server/tools#tool-names', 'Tool names should be unique within a server'),
    async run(ctx) {
      const none = requires(ctx, 'tools');
      if (none) return none;
      const walk = ctx.profile.walks.find((w) => w.method === 'tools/list');
      if (walk && walk.duplicates.length > 0) return warn(`listed more than once: ${walk.duplicates.join(', ')}`, { expected: 'unique names', actual: walk.duplicates });
      return ctx.profile.tools.length === 0 ? skip('the server lists no tools') : pass(`${ctx.profile.tools.length} distinct tool names`);
    },
  },
  {
    id: 'tools/input-schema/valid',
    title: 'Every tool inputSchema is an object schema that compiles',
    requirement: requirement('jsonschema.valid', 'MUST', 'server/tools#tool', 'A tool\'s inputSchema is a valid JSON Schema object with type "object" (never null)'),
    async run(ctx) {
      return requires(ctx, 'tools') ?? (ctx.profile.tools.length === 0 ? skip('the server lists no tools') : schemaOutcome(ctx.profile.tools, 'inputSchema'));
    },
  },
  {
    id: 'tools/output-schema/valid',
    title: 'Every tool outputSchema is an object schema that compiles',
    requirement: requirement('jsonschema.valid', 'MUST', 'server/tools#output-schema', 'A tool\'s outputSchema, when present, is a valid JSON Schema object with type "object"'),
    async run(ctx) {
      return requires(ctx, 'tools') ?? schemaOutcome(ctx.profile.tools, 'outputSchema');
    },
  },
  {
    id: 'tools/call/unknown-tool',
    title: 'Calling an unknown tool gets JSON-RPC error -32602',
    requirement: requirement('tools.call.unknown', 'SHOULD', 'server/tools#error-handling', 'An unknown tool is a protocol error (-32602 in the spec\'s example), not a tool result with isError'),
    async run(ctx) {
      const none = requires(ctx, 'tools');
      if (none) return none;
      const name = unlistedName('conformance-unknown-tool', ctx.profile.tools);
      const reply = await ctx.request('tools/call', { name, arguments: {} });
      const result = resultOf(reply);
      if (result?.isError === true) {
        return warn('an unknown tool was answered with an isError result: the wrong side of the protocol-error / tool-error split (TypeScript SDK v1 and FastMCP do this)', {
          expected: { error: { code: -32602 } },
          actual: describeReply(reply),
        });
      }
      return expectCode(reply, -32602, `tools/call ${name}`, 'warn');
    },
  },
  {
    id: 'resources/read/unknown-uri',
    title: 'Reading an unknown resource gets error -32002',
    requirement: requirement('res.read.not-found', 'SHOULD', 'server/resources#error-handling', 'Reading a resource that does not exist is an error: -32002 (Resource not found)'),
    async run(ctx) {
      const none = requires(ctx, 'resources');
      if (none) return none;
      const reply = await ctx.request('resources/read', { uri: UNKNOWN_URI });
      const err = errorOf(reply);
      // -32602 is the TypeScript SDK's code and the 2026-07-28 rule (requirements §4.3): accepted.
      if (err?.code === -32602) return pass('answered -32602, accepted: the 2026-07-28 code and the TypeScript SDK\'s');
      if (!err) {
        const contents = resultOf(reply)?.contents;
        const empty = Array.isArray(contents) && contents.length === 0;
        return warn(empty ? 'an unknown resource was answered with empty contents' : 'an unknown resource was served', { expected: { error: { code: -32002 } }, actual: describeReply(reply) });
      }
      return expectCode(reply, -32002, `resources/read ${UNKNOWN_URI}`, 'warn');
    },
  },
  {
    id: 'prompts/get/unknown-prompt',
    title: 'Getting an unknown prompt gets error -32602',
    requirement: requirement('prompts.get.unknown', 'SHOULD', 'server/prompts#error-handling', 'An invalid prompt name is answered with error -32602'),
    async run(ctx) {
      const none = requires(ctx, 'prompts');
      if (none) return none;
      const name = unlistedName('conformance-unknown-prompt', ctx.profile.prompts);
      const reply = await ctx.request('prompts/get', { name });
      if (!errorOf(reply)) return fail(`prompts/get ${name} succeeded for a prompt that does not exist`, { expected: { error: { code: -32602 } }, actual: describeReply(reply) });
      return expectCode(reply, -32602, `prompts/get ${name}`, 'warn');
    },
  },
  {
    id: 'pagination/invalid-cursor',
    title: 'An invalid cursor gets error -32602',
    requirement: requirement('page.invalid-cursor', 'SHOULD', 'server/utilities/pagination#error-handling', 'Invalid cursors should result in an error with code -32602'),
    async run(ctx) {
      const lists = LISTS.filter((l) => ctx.profile.capabilities[l.capability] !== undefined);
      if (lists.length === 0) return skip('the server declares no paginated capability (tools, resources, prompts)');
      const outcomes = await Promise.all(
        lists.map(async (l) => {
          const reply = await ctx.request(l.method, { cursor: INVALID_CURSOR });
          if (!errorOf(reply)) return warn(`${l.method} ignored the invalid cursor`, { expected: { error: { code: -32602 } }, actual: describeReply(reply) });
          return expectCode(reply, -32602, l.method, 'warn');
        }),
      );
      return worst(outcomes);
    },
  },
  {
    id: 'pagination/walk',
    title: 'Every list can be walked to its end, without repeats',
    requirement: requirement('page.terminate', 'SHOULD', 'server/utilities/pagination#implementation-guidelines', 'Cursors are stable: following nextCursor ends, and no item appears on two pages'),
    async run(ctx) {
      if (ctx.profile.walks.length === 0) return skip('the server declares no paginated capability (tools, resources, prompts)');
      const outcomes = ctx.profile.walks.map((w): Outcome => {
        // A declared capability whose list method fails is not served as declared (cap.*.declared: MUST).
        if (w.problem?.startsWith('page')) return fail(`${w.method}: ${w.problem}`, { actual: w });
        if (w.problem) return warn(`${w.method}: ${w.problem}`, { actual: w });
        if (w.duplicates.length > 0) return warn(`${w.method}: ${w.duplicates.length} item(s) on more than one page`, { actual: w.duplicates });
        return pass(`${w.method}: ${w.pages} page(s)`);
      });
      return worst(outcomes);
    },
  },
];
