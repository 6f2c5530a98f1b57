// Property of every paginated list method: cursors the server never issued.
import fc from 'fast-check';
import { type CheckDef, expectCode, describeReply, errorOf, skip, warn } from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import { LISTS } from '../../discovery/discover.js';
import { SCHEMA_REVISIONS } from '../../schema/validators.js';
import { checkProperty } from '../kit/property-runner.js';
import { anyText } from '../../generate/schema-arbitrary.js';

/** Cursors no server issues: random strings, base64 of random bytes, huge ones, any Unicode. Never empty (07 makes "" a cursor). */
const INVALID_CURSORS = fc.oneof(
  { withCrossShrink: true },
  anyText({ minLength: 1, maxLength: 64 }),
  fc.uint8Array({ minLength: 1, maxLength: 48 }).map((bytes) => Buffer.from(bytes).toString('base64')),
  fc
    .tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.integer({ min: 2_000, max: 20_000 }))
    .map(([s, n]) => s.repeat(n)),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }),
);

export const PAGINATION_PROPERTIES: CheckDef[] = [
  {
    id: 'pagination/invalid-cursor',
    revisions: SCHEMA_REVISIONS,
    title: 'An invalid cursor gets error -32602',
    requirement: requirement(
      'page.invalid-cursor',
      'SHOULD',
      'server/utilities/pagination#error-handling',
      'Invalid cursors should result in an error with code -32602',
    ),
    async run(ctx) {
      const methods = LISTS.filter((l) => ctx.profile.capabilities[l.capability] !== undefined).map((l) => l.method);
      if (methods.length === 0) return skip('the server declares no paginated capability (tools, resources, prompts)');
      return checkProperty(ctx, {
        id: this.id,
        what: 'invalid cursors',
        arbitrary: fc.record({ method: fc.constantFrom(...methods), cursor: INVALID_CURSORS }),
        async judge({ method, cursor }, request) {
          const reply = await request(method, { cursor });
          if (!errorOf(reply))
            return warn(`${method} ignored the invalid cursor`, {
              expected: { error: { code: -32602 } },
              actual: describeReply(reply),
            });
          return expectCode(reply, -32602, `${method} with an invalid cursor`, 'warn');
        },
      });
    },
  },
];
