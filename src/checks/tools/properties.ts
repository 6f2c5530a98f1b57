// Properties of tools/call: unknown names, invalid arguments, valid arguments.
import fc from 'fast-check';
import {
  type CheckContext,
  type CheckDef,
  expectCode,
  TOOL_NAME,
  describeReply,
  errorOf,
  fail,
  pass,
  resultOf,
  skip,
  warn,
} from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import type { Item } from '../../discovery/profile.js';
import { compileToolSchema } from '../../schema/tool-schemas.js';
import { SCHEMA_REVISIONS, STATELESS_REVISION, validate, shapeBroken } from '../../schema/validators.js';
import { boundaryArguments, type EdgeKind } from '../../generate/boundary.js';
import { checkProperty, type Stratum } from '../kit/property-runner.js';
import { anyText, schemaArbitraries } from '../../generate/schema-arbitrary.js';
import { callableTools } from '../../generate/tool-policy.js';
import { paramHeadersOf } from '../../discovery/discover.js';

interface Call {
  tool: string;
  arguments: unknown;
}

/** Names no listed tool has, in any letter case: names within the naming rules, and names that break them. */
function unknownToolNames(tools: Item[]): fc.Arbitrary<string> {
  const listed = new Set(tools.map((t) => String(t.name).toLowerCase()));
  return fc
    .oneof(
      { withCrossShrink: true }, // a counterexample shrinks towards a plain name
      fc.stringMatching(TOOL_NAME),
      anyText({ maxLength: 40 }), // any characters, the empty name too
      fc.stringMatching(/^[A-Za-z0-9_.-]{129,160}$/), // too long
    )
    .filter((name) => !listed.has(name.toLowerCase()));
}

/** A tool generated calls may reach: its arguments' generator and its boundary values. */
interface ToolCalls {
  tool: string;
  arbitrary: fc.Arbitrary<unknown>;
  edges: unknown[];
}

/**
 * Generated calls, with arguments of one kind, of every tool the policy lets the run call and none has found slow:
 * each tool its own share of the runs, its boundary values first (at least a quarter of its share random). The note
 * names the calls each tool got and the tools left out, with the reason (a skip when none is left).
 */
function generatedCalls(ctx: CheckContext, kind: EdgeKind) {
  const { callable, skipped } = callableTools(ctx.profile.tools, ctx.toolCalls);
  const tools: ToolCalls[] = [];
  const validators = new Map<string, (value: unknown) => string[]>();
  for (const tool of callable) {
    const name = String(tool.name);
    const slow = ctx.slowTools.get(name);
    const schema = schemaArbitraries(tool.inputSchema);
    const generated = schema[kind];
    if (slow) {
      skipped.push({ tool: name, reason: slow });
      continue;
    }
    if (!generated.ok) {
      skipped.push({ tool: name, reason: generated.reason });
      continue;
    }
    validators.set(name, schema.validate);
    // The edges are moved onto a valid value drawn from the run's seed.
    const base = schema.valid.ok ? fc.sample(schema.valid.arbitrary, { seed: ctx.seed, numRuns: 1 })[0] : undefined;
    tools.push({
      tool: name,
      arbitrary: generated.arbitrary,
      edges: boundaryArguments(tool.inputSchema, base, kind, schema.validate),
    });
  }
  const byReason = new Map<string, string[]>();
  for (const s of skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), s.tool]);
  const left = [...byReason].map(([reason, names]) => `${names.join(', ')} (${reason})`).join('; ');
  if (tools.length === 0)
    return { none: skip(`no tool can be called with generated ${kind} arguments; left out: ${left}`) };
  const share = Math.ceil(ctx.runs / tools.length);
  const call =
    (tool: string) =>
    (args: unknown): Call => ({ tool, arguments: args });
  const strata: Stratum<Call>[] = tools.map(({ tool, arbitrary, edges }) => ({
    label: tool,
    arbitrary: arbitrary.map(call(tool)),
    examples: edges.map(call(tool)),
    runs: edges.length + Math.max(Math.ceil(share / 4), share - edges.length),
  }));
  const edges = tools.reduce((n, t) => n + t.edges.length, 0);
  const note = (sent: Map<string, number>) =>
    `calls per tool (${edges} at boundary values): ${[...sent].map(([tool, n]) => `${tool} ${n}`).join(', ')}${left ? `; left out: ${left}` : ''}`;
  return { strata, validators, note, slow: { of: (c: Call) => c.tool, left: ctx.slowTools } };
}

const noTools = (ctx: CheckContext) => (ctx.profile.tools.length === 0 ? skip('the server lists no tools') : undefined);

export const TOOL_PROPERTIES: CheckDef[] = [
  {
    id: 'tools/call/unknown-tool',
    revisions: SCHEMA_REVISIONS,
    title: 'Calling an unknown tool gets JSON-RPC error -32602',
    requirement: requirement(
      'tools.call.unknown',
      'SHOULD',
      'server/tools#error-handling',
      "An unknown tool is a protocol error (-32602 in the spec's example), not a tool result with isError",
    ),
    requires: { capabilities: ['tools'] },
    async run(ctx) {
      // A generated name is never listed, so calling it is always safe (ARCHITECTURE.md).
      return checkProperty(ctx, {
        id: this.id,
        what: 'unknown tool names (within the naming rules and outside them)',
        arbitrary: unknownToolNames(ctx.profile.tools),
        async judge(name, request) {
          const reply = await request('tools/call', { name, arguments: {} });
          if (resultOf(reply)?.isError === true) {
            return warn(
              'an unknown tool was answered with an isError result: the wrong side of the protocol-error / tool-error split (TypeScript SDK v1 and FastMCP do this)',
              {
                expected: { error: { code: -32602 } },
                actual: describeReply(reply),
              },
            );
          }
          return expectCode(reply, -32602, 'tools/call of an unknown tool', 'warn');
        },
      });
    },
  },
  {
    id: 'tools/call/invalid-arguments',
    revisions: SCHEMA_REVISIONS,
    title: 'Arguments that break the inputSchema get an isError result, never a success or an internal error',
    requirement: requirement(
      'tools.call.input-validation',
      'MUST',
      'server/tools#error-handling',
      'Servers validate tool inputs: arguments that break the inputSchema are a tool execution error (isError: true since 2025-11-25, -32602 before), never run',
    ),
    covers: ['tools.security'],
    requires: { capabilities: ['tools'] },
    async run(ctx) {
      const none = noTools(ctx);
      if (none) return none;
      const calls = generatedCalls(ctx, 'invalid');
      if (calls.none) return calls.none;
      const { strata, validators, note, slow } = calls;
      const expected = { result: { isError: true } };
      // SEP-1303 (2025-11-25) made input validation a tool execution error; before it, -32602 was as right (requirements §4.2).
      const sep1303 = ctx.profile.revision >= '2025-11-25';
      return checkProperty(ctx, {
        id: this.id,
        what: 'calls with invalid arguments',
        strata,
        slow,
        note,
        describe: (call) => ({ ...call, invalid: validators.get(call.tool)!(call.arguments) }),
        async judge(call, request) {
          const reply = await request('tools/call', { name: call.tool, arguments: call.arguments });
          const result = resultOf(reply);
          if (result?.isError === true) return pass('isError result');
          if (result)
            return fail('invalid arguments were accepted: the tool answered without isError', {
              expected,
              actual: describeReply(reply),
            });
          const code = errorOf(reply)?.code;
          // An internal error means the arguments reached code that did not check them (TOOLS › Security: validate all inputs).
          if (code === -32603)
            return fail('invalid arguments caused an internal error (-32603): they were not validated', {
              expected,
              actual: describeReply(reply),
            });
          // On the stateless wire an x-mcp-header argument is mirrored in its Mcp-Param header, which a value that is
          // no string, number or boolean cannot be: the server refuses the request at the header (HeaderMismatch),
          // before the tool sees it, as the header rule asks.
          const unmirrored = code === -32020 ? unmirroredArguments(ctx, call) : [];
          if (unmirrored.length > 0)
            return pass(`refused with -32020 before the tool ran: ${unmirrored.join(', ')} is mirrored in a header`);
          if (code !== -32602)
            return warn(`answered error ${JSON.stringify(code)} instead of an isError result`, {
              expected,
              actual: describeReply(reply),
            });
          if (!sep1303) return pass('error -32602 (right before 2025-11-25)');
          return warn(
            'answered error -32602: since 2025-11-25 (SEP-1303) invalid arguments are a tool execution error, an isError result the model can read',
            { expected, actual: describeReply(reply) },
          );
        },
      });
    },
  },
  {
    id: 'tools/call/valid-arguments',
    revisions: SCHEMA_REVISIONS,
    title: 'Valid arguments get a CallToolResult whose structuredContent conforms to the outputSchema',
    requirement: requirement(
      'tools.structured.conform',
      'MUST',
      'server/tools#output-schema',
      'Arguments valid for the inputSchema get a valid CallToolResult; when the tool has an outputSchema and isError is not true, structuredContent conforms to it',
    ),
    covers: ['tools.call.shape'],
    requires: { capabilities: ['tools'] },
    slowWork: true,
    async run(ctx) {
      const none = noTools(ctx);
      if (none) return none;
      const calls = generatedCalls(ctx, 'valid');
      if (calls.none) return calls.none;
      const { strata, note, slow } = calls;
      const { revision } = ctx.profile;
      // outputSchema arrived in 2025-06-18; one that does not compile is tools/output-schema/valid's finding.
      const outputs = new Map<string, { schema: unknown; validate(value: unknown): string[] }>();
      for (const tool of revision >= '2025-06-18' ? ctx.profile.tools : []) {
        const compiled = tool.outputSchema === undefined ? undefined : compileToolSchema(tool.outputSchema);
        if (compiled?.ok) outputs.set(String(tool.name), { schema: tool.outputSchema, validate: compiled.validate });
      }
      return checkProperty(ctx, {
        id: this.id,
        what: 'calls with valid arguments',
        strata,
        slow,
        note,
        async judge(call, request) {
          const reply = await request('tools/call', { name: call.tool, arguments: call.arguments });
          const result = resultOf(reply);
          // On the stateless wire a tool may need a client capability the suite does not declare (07.missing-cap), or
          // ask for input (07.mrtr): stateless/* checks judge those answers.
          if (
            revision === STATELESS_REVISION &&
            (errorOf(reply)?.code === -32021 || result?.resultType === 'input_required')
          )
            return pass('needs client input the suite does not give here');
          if (!result) {
            return warn(
              `valid arguments were answered with error ${JSON.stringify(errorOf(reply)?.code)}: a tool that fails says so in an isError result`,
              {
                expected: 'a CallToolResult',
                actual: describeReply(reply),
              },
            );
          }
          const shape = validate(revision, 'CallToolResult', result);
          if (shapeBroken(shape))
            return fail(`the result is not a valid CallToolResult (${revision})`, {
              expected: 'CallToolResult',
              actual: { result, errors: shape.errors },
            });
          const output = outputs.get(call.tool);
          if (result.isError === true || !output) return pass(result.isError === true ? 'isError result' : 'result');
          if (!('structuredContent' in result))
            return fail('no structuredContent, though the tool declares an outputSchema', {
              expected: { structuredContent: output.schema },
              actual: describeReply(reply),
            });
          const errors = output.validate(result.structuredContent);
          if (errors.length > 0)
            return fail('structuredContent does not conform to the outputSchema', {
              expected: output.schema,
              actual: { structuredContent: result.structuredContent, errors },
            });
          return pass('result with conforming structuredContent');
        },
      });
    },
  },
];

/**
 * The arguments of `call` its tool mirrors in Mcp-Param headers (x-mcp-header, 2026-07-28) whose value no header can
 * carry: present, and no string, number or boolean.
 */
function unmirroredArguments(ctx: CheckContext, call: { tool: string; arguments: unknown }): string[] {
  if (ctx.profile.revision !== STATELESS_REVISION || typeof call.arguments !== 'object' || call.arguments === null)
    return [];
  const args = call.arguments as Record<string, unknown>;
  const mirrored = paramHeadersOf(ctx.profile.tools).get(call.tool) ?? {};
  return Object.keys(mirrored).filter(
    (arg) => arg in args && !['string', 'number', 'boolean'].includes(typeof args[arg]),
  );
}
