// Property of resources/read: URIs nothing lists or templates.
import fc from 'fast-check';
import { type CheckDef, expectCode, describeReply, errorOf, pass, resultOf, warn } from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import type { ServerProfile } from '../../discovery/profile.js';
import { SCHEMA_REVISIONS, STATELESS_REVISION } from '../../schema/validators.js';
import { checkProperty } from '../kit/property-runner.js';
import { uriSegment } from '../../generate/schema-arbitrary.js';

/** In every generated URI: it names nothing real, and its host (a .invalid name, RFC 2606) resolves nowhere. */
const MARKER = 'mcp-conformance-unknown';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A resource template as a loose pattern: every {expression} matches anything. */
const templatePattern = (template: string) =>
  new RegExp(
    `^${template
      .split(/\{[^}]*\}/)
      .map(escape)
      .join('.*')}$`,
    's',
  );
const schemeOf = (uri: unknown) => (typeof uri === 'string' ? /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1] : undefined);

/** URIs in file:, http(s): and the server's own schemes that no listed resource has and no template matches. */
function unknownUris(profile: ServerProfile): fc.Arbitrary<string> {
  const listed = new Set(profile.resources.map((r) => r.uri));
  const templates = profile.resourceTemplates.map((t) => templatePattern(String(t.uriTemplate)));
  const own = [...profile.resources.map((r) => r.uri), ...profile.resourceTemplates.map((t) => t.uriTemplate)].map(
    schemeOf,
  );
  const schemes = [
    ...new Set(['file', 'https', 'http', 'mcp-conformance', ...own.filter((s): s is string => s !== undefined)]),
  ];
  const segment = fc.oneof(
    uriSegment(),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map(encodeURIComponent),
  );
  return fc
    .tuple(fc.constantFrom(...schemes), fc.array(segment, { minLength: 1, maxLength: 4 }))
    .map(([scheme, path]) =>
      scheme === 'file' ? `file:///${MARKER}/${path.join('/')}` : `${scheme}://${MARKER}.invalid/${path.join('/')}`,
    )
    .filter((uri) => !listed.has(uri) && !templates.some((t) => t.test(uri)));
}

export const RESOURCE_PROPERTIES: CheckDef[] = [
  {
    id: 'resources/read/unknown-uri',
    title: 'Reading an unknown resource gets error -32002 (2026-07-28: -32602)',
    requirement: requirement(
      'res.read.not-found',
      'SHOULD',
      'server/resources#error-handling',
      'Reading a resource that does not exist is an error: -32002 (Resource not found); from 2026-07-28 on it MUST be -32602 and never empty contents',
    ),
    covers: ['res.read.not-found.07', '07.resources.notfound'],
    revisions: SCHEMA_REVISIONS,
    requires: { capabilities: ['resources'] },
    async run(ctx) {
      // 2026-07-28 made -32602 a MUST and retired -32002 (requirements §4.3).
      const stateless = ctx.profile.revision === STATELESS_REVISION;
      return checkProperty(ctx, {
        id: this.id,
        what: 'unknown resource URIs',
        arbitrary: unknownUris(ctx.profile),
        async judge(uri, request) {
          const reply = await request('resources/read', { uri });
          const err = errorOf(reply);
          if (stateless) return expectCode(reply, -32602, 'resources/read of an unknown URI', 'fail');
          // -32602 is the TypeScript SDK's code and the 2026-07-28 rule (requirements §4.3): accepted.
          if (err?.code === -32602)
            return pass("error -32602 (accepted: the 2026-07-28 code and the TypeScript SDK's)");
          if (!err) {
            const contents = resultOf(reply)?.contents;
            const empty = Array.isArray(contents) && contents.length === 0;
            return warn(
              empty ? 'an unknown resource was answered with empty contents' : 'an unknown resource was served',
              { expected: { error: { code: -32002 } }, actual: describeReply(reply) },
            );
          }
          return expectCode(reply, -32002, 'resources/read of an unknown URI', 'warn');
        },
      });
    },
  },
];
