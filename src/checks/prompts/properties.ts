// Property of prompts/get: argument values of the wrong JSON type.
import fc from 'fast-check';
import { type CheckDef, expectCode, describeReply, errorOf, skip, warn } from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import { SCHEMA_REVISIONS } from '../../schema/validators.js';
import { checkProperty } from '../kit/property-runner.js';
import { notOfType, promptArgumentsSchema, schemaArbitraries } from '../../generate/schema-arbitrary.js';

interface PromptCall {
  prompt: string;
  arguments: Record<string, unknown>;
}

export const PROMPT_PROPERTIES: CheckDef[] = [
  {
    id: 'prompts/get/argument-types',
    revisions: SCHEMA_REVISIONS,
    title: 'A prompt argument that is not a string gets error -32602',
    requirement: requirement(
      'base.invalid-params',
      'SHOULD',
      'server/prompts#error-handling',
      'Prompt arguments are strings: a value of another type breaks the GetPromptRequest schema and is answered with error -32602',
    ),
    requires: { capabilities: ['prompts'] },
    // A listed prompt may be slow to get.
    slowWork: true,
    async run(ctx) {
      const calls: fc.Arbitrary<PromptCall>[] = [];
      const left: string[] = [];
      for (const prompt of ctx.profile.prompts) {
        const schema = promptArgumentsSchema(prompt);
        const names = Object.keys(schema.properties);
        const valid = schemaArbitraries(schema).valid;
        if (names.length === 0 || !valid.ok) {
          left.push(`${String(prompt.name)} (${valid.ok ? 'no arguments' : valid.reason})`);
          continue;
        }
        // Every other argument valid, so the wrong type is the only thing to object to.
        const call = fc.tuple(valid.arbitrary, fc.constantFrom(...names), notOfType(['string'])!);
        calls.push(
          call.map(([args, key, value]) => ({
            prompt: String(prompt.name),
            arguments: { ...(args as Record<string, unknown>), [key]: value },
          })),
        );
      }
      if (calls.length === 0)
        return skip(`no prompt declares arguments${left.length > 0 ? `: ${left.join('; ')}` : ''}`);
      return checkProperty(ctx, {
        id: this.id,
        what: 'prompts/get calls with a non-string argument',
        arbitrary: fc.oneof(...calls),
        note: left.length > 0 ? `left out: ${left.join('; ')}` : undefined,
        async judge(call, request) {
          const reply = await request('prompts/get', { name: call.prompt, arguments: call.arguments });
          if (!errorOf(reply))
            return warn('an argument that is not a string was accepted', {
              expected: { error: { code: -32602 } },
              actual: describeReply(reply),
            });
          return expectCode(reply, -32602, 'prompts/get with a non-string argument', 'warn');
        },
      });
    },
  },
];
