import { compileToolSchema } from '../../schema/tool-schemas.js';
import type { Item } from '../../discovery/profile.js';
import { SCHEMA_REVISIONS, STATELESS_REVISION } from '../../schema/validators.js';
import { type CheckDef, type Outcome, TOOL_NAME, fail, pass, skip, warn } from '../kit/check.js';
import { requirement } from '../kit/requirement.js';

/** `objectRoot`: the schema must have type "object" at its root (every inputSchema; outputSchemas before 2026-07-28). */
function schemaOutcome(tools: Item[], field: 'inputSchema' | 'outputSchema', objectRoot = true): Outcome {
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
    if (
      typeof schema !== 'object' ||
      schema === null ||
      Array.isArray(schema) ||
      (objectRoot && schema.type !== 'object')
    ) {
      bad.push({
        tool: tool.name,
        problem: `${field} is ${JSON.stringify(schema)?.slice(0, 80)}, not ${objectRoot ? 'an object schema' : 'a schema object'}`,
      });
      continue;
    }
    const compiled = compileToolSchema(schema);
    if (!compiled.ok)
      (compiled.reason === 'unsupported-dialect' ? unknownDialect : bad).push({
        tool: tool.name,
        problem: compiled.error,
      });
  }
  const expected = objectRoot ? 'a JSON Schema with type "object" that compiles' : 'a JSON Schema object that compiles';
  if (bad.length > 0) return fail(`${bad.length} tool(s) have an invalid ${field}`, { expected, actual: bad });
  // A $schema naming a dialect this validator does not know may still be valid (jsonschema.explicit).
  if (unknownDialect.length > 0)
    return warn(`${unknownDialect.length} ${field}(s) declare a dialect that could not be checked`, {
      expected,
      actual: unknownDialect,
    });
  if (seen === 0) return skip(`no tool declares an ${field}`);
  return pass(`${seen} ${field}(s) are ${objectRoot ? 'object schemas' : 'schemas'} that compile`);
}

export const TOOL_CHECKS: CheckDef[] = [
  {
    id: 'tools/names/format',
    revisions: SCHEMA_REVISIONS,
    title: 'Tool names are 1–128 characters of A–Z, a–z, 0–9, _ - .',
    covers: ['tools.name.length', 'tools.name.no-special'],
    requirement: requirement(
      'tools.name.charset',
      'SHOULD',
      'server/tools#tool-names',
      'Tool names should be 1 to 128 characters long and use only ASCII letters, digits, underscore, hyphen and dot',
    ),
    requires: { capabilities: ['tools'] },
    async run(ctx) {
      if (ctx.profile.revision < '2025-11-25')
        return skip(`tool-name rules arrived in 2025-11-25; the server negotiated ${ctx.profile.protocolVersion}`);
      const bad = ctx.profile.tools.map((t) => t.name).filter((n) => typeof n !== 'string' || !TOOL_NAME.test(n));
      if (bad.length > 0)
        return warn(`${bad.length} tool name(s) break the naming rules`, { expected: TOOL_NAME.source, actual: bad });
      return ctx.profile.tools.length === 0
        ? skip('the server lists no tools')
        : pass(`${ctx.profile.tools.length} tool names follow the rules`);
    },
  },
  {
    id: 'tools/names/unique',
    revisions: SCHEMA_REVISIONS,
    title: 'Tool names are unique across all pages',
    requirement: requirement(
      'tools.name.unique',
      'SHOULD',
      'server/tools#tool-names',
      'Tool names should be unique within a server',
    ),
    requires: { capabilities: ['tools'] },
    async run(ctx) {
      const walk = ctx.profile.walks.find((w) => w.method === 'tools/list');
      if (walk && walk.duplicates.length > 0)
        return warn(`listed more than once: ${walk.duplicates.join(', ')}`, {
          expected: 'unique names',
          actual: walk.duplicates,
        });
      return ctx.profile.tools.length === 0
        ? skip('the server lists no tools')
        : pass(`${ctx.profile.tools.length} distinct tool names`);
    },
  },
  {
    id: 'tools/input-schema/valid',
    revisions: SCHEMA_REVISIONS,
    title: 'Every tool inputSchema is an object schema that compiles',
    covers: ['tools.inputSchema.object', 'jsonschema.valid', 'jsonschema.explicit', 'jsonschema.default'],
    requirement: requirement(
      'tools.inputSchema.valid',
      'MUST',
      'server/tools#tool',
      'A tool\'s inputSchema is a valid JSON Schema object with type "object" (never null)',
    ),
    requires: { capabilities: ['tools'] },
    async run(ctx) {
      return ctx.profile.tools.length === 0
        ? skip('the server lists no tools')
        : schemaOutcome(ctx.profile.tools, 'inputSchema');
    },
  },
  {
    id: 'tools/output-schema/valid',
    revisions: SCHEMA_REVISIONS,
    title: 'Every tool outputSchema is an object schema that compiles (2026-07-28: any schema)',
    covers: ['tools.outputSchema.object', '07.tools.schemas'],
    requirement: requirement(
      'tools.outputSchema.valid',
      'MUST',
      'server/tools#output-schema',
      'A tool\'s outputSchema, when present, is a valid JSON Schema object with type "object"; from 2026-07-28 on, any valid JSON Schema 2020-12',
    ),
    requires: { capabilities: ['tools'] },
    async run(ctx) {
      return schemaOutcome(ctx.profile.tools, 'outputSchema', ctx.profile.revision !== STATELESS_REVISION);
    },
  },
];
