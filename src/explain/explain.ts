// `explain <check-id>`: what a check holds a server to, what it sends, the faults that fail it and how to fix them.
import { AUTHZ_CHECKS } from '../checks/authz/checks.js';
import { CLIENT_AUTH_CHECKS } from '../checks/client-side/auth.js';
import { CLIENT_CHECKS } from '../checks/client-side/index.js';
import type { CheckDef } from '../checks/kit/check.js';
import type { FrameRule } from '../checks/kit/frame-rule.js';
import { citing } from '../checks/kit/requirement.js';
import { ConfigError } from '../config/yaml-file.js';
import { REVISIONS } from '../schema/validators.js';
import type { Requirement } from '../schema/generated/report.js';
import { withoutRevision } from '../report/text.js';
import { nearestIds } from '../suite/glob.js';
import { loadSuite } from '../suite/suite.js';
import { type CatalogueRow, type FaultRow, explainData } from './data.js';

export interface Explanation {
  id: string;
  title: string;
  kind: 'check' | 'case' | 'frame rule' | 'client check' | 'authorization-server check';
  /** The case file, for a case. */
  source?: string;
  requirement: Requirement;
  /** The catalogue's row of the requirement (absent for a user's own requirement ids). */
  row?: CatalogueRow;
  /** Each revision the check applies to, with the requirement's link in that revision's pages. */
  revisions: { revision: string; link: string }[];
  /** Further catalogue ids the check exercises. */
  covers: string[];
  /** The faults of the project's faulty servers (or faulty clients) that trip it. */
  faults: FaultRow[];
  /** How to fix the usual causes. */
  fix: string;
}

/**
 * Advice by id prefix (the longest that matches wins): what usually breaks the checks of an area, and what to change.
 * Said in general terms: the catalogue's `expected` and the fault rows say what one check wants.
 */
const FIX_BY_AREA: [string, string][] = [
  [
    'client-side',
    "Let the client's MCP layer do what the scenario's revision asks: initialize first (or per-request `_meta` on 2026-07-28), only declared capabilities answered, the session id and `MCP-Protocol-Version` on every request after initialization, and the server's answers taken as sent.",
  ],
  [
    'client-side/auth',
    'Follow the MCP authorization flow: discover the protected resource and its authorization server from the challenge and the well-known documents, check `resource` and `issuer`, use PKCE S256 and `state`, name the resource (RFC 8707), ask for the scopes the challenge names, and send the token only in the Authorization header to its resource.',
  ],
  [
    'authz',
    'Configure the authorization server for MCP clients: metadata at the RFC 8414 or OpenID location of its issuer, with `code_challenge_methods_supported` listing S256; PKCE required and verified; tokens audience-restricted to the `resource` asked for; refresh tokens of public clients rotated; dynamic registration or client ID metadata documents for clients without a prior relationship.',
  ],
  [
    'base',
    'Let one JSON-RPC layer (an MCP SDK) write every message: `"jsonrpc":"2.0"`, the request id echoed with its JSON type, `result` or `error` but never both, and errors with the spec\'s codes (-32700 unparsable, -32600 invalid request, -32601 unknown method, -32602 bad params).',
  ],
  [
    'transport/stdio',
    'Write only MCP messages to stdout, one JSON object per line; send logs and banners to stderr (console.error, not console.log); exit when stdin closes.',
  ],
  [
    'transport/http',
    'Serve Streamable HTTP as the spec says: POST answers with JSON or an SSE stream, 202 for notifications and responses, sessions by `Mcp-Session-Id` (404 once ended), and `MCP-Protocol-Version` checked (400 when unsupported).',
  ],
  [
    'lifecycle',
    "Answer `initialize` with the client's version when you support it, else your latest; declare only the capabilities you serve, and serve what you declare.",
  ],
  [
    'tools',
    "Validate `tools/call` arguments against the tool's `inputSchema` (bad ones: -32602, or a result with `isError: true`); keep every `inputSchema` and `outputSchema` a valid JSON Schema object; return `structuredContent` that matches `outputSchema`; an unknown tool is an error.",
  ],
  [
    'resources',
    'Answer `resources/read` of a listed URI with its contents and of an unknown URI with the error the revision names; list templates as RFC 6570 URI templates.',
  ],
  [
    'prompts',
    'Answer `prompts/get` of a listed prompt with messages; a missing required argument or an unknown prompt is -32602.',
  ],
  [
    'pagination',
    'Send `nextCursor` only while more items follow, accept the cursors you issued, and answer a cursor you never issued with -32602.',
  ],
  [
    'completion',
    'Answer `completion/complete` with at most 100 values, `total` and `hasMore` consistent with them; an unknown prompt or template is an error.',
  ],
  [
    'logging',
    'Accept every level of `logging/setLevel` and send `notifications/message` at or above the level set, never before initialize.',
  ],
  ['ping', 'Answer `ping` with an empty result, at any time after initialize.'],
  [
    'stateless',
    "On 2026-07-28 serve `server/discover`, read the protocol version and client capabilities from each request's `_meta` (-32602 without them, -32022 with the supported versions for one you do not speak), put `resultType` on every result and answer the same on every connection.",
  ],
  [
    'auth',
    'Answer a request without a valid token with 401 and `WWW-Authenticate` naming your protected resource metadata; serve that metadata; accept only tokens issued for your server (audience) and unexpired.',
  ],
  [
    'tasks',
    "Create a task only where the request asked for one and the capability allows it; keep `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` consistent with the task's status.",
  ],
  [
    'apps',
    'Declare the MCP Apps extension and serve each `ui://` resource a tool points at, with the MIME type and metadata the extension names.',
  ],
  [
    'conversation',
    'Keep what a session already told the client true: list-changed notifications only for lists that changed, progress tokens and cancellation as the client sent them.',
  ],
];

const VERDICT: Record<Requirement['level'], string> = {
  MUST: 'fail when broken',
  SHOULD: 'warn when broken (fail under --strict)',
  MAY: 'warn at most',
};

const catalogueRevisions = (row: CatalogueRow | undefined) => row?.revisions ?? [];

/** The advice for check `id`: the longest area prefix's. */
export function fixFor(id: string): string {
  const bare = withoutRevision(id);
  const match = FIX_BY_AREA.filter(([area]) => bare === area || bare.startsWith(`${area}/`)).sort(
    (a, b) => b[0].length - a[0].length,
  )[0];
  return (
    match?.[1] ?? 'Make the server do what the requirement says; the fault rows above show what usually breaks it.'
  );
}

/** What explain needs of a client check (its judging aside). */
type ClientDescribed = Pick<CheckDef, 'id' | 'title' | 'requirement' | 'covers'> & { revisions?: readonly string[] };
type Described = (CheckDef | FrameRule | ClientDescribed) & { kind: Explanation['kind'] };

/** Every check the suite knows (built-in checks, cases, properties and frame rules; with the user's case folders). */
export async function allChecks(caseDirs: string[] = []): Promise<Described[]> {
  const { checks, frameRules } = await loadSuite({ caseDirs });
  return [
    ...checks.map((c) => ({ ...c, kind: c.source ? ('case' as const) : ('check' as const) })),
    ...frameRules.map((r) => ({ ...r, kind: 'frame rule' as const })),
    ...[...CLIENT_CHECKS, ...CLIENT_AUTH_CHECKS].map(({ id, title, requirement, covers, ...rest }) => ({
      id,
      title,
      requirement,
      covers,
      ...('revisions' in rest && rest.revisions ? { revisions: rest.revisions } : {}),
      kind: 'client check' as const,
    })),
    ...AUTHZ_CHECKS.map(({ id, title, requirement, covers }) => ({
      id,
      title,
      requirement,
      covers,
      revisions: catalogueRevisions(explainData().requirements[requirement.id]),
      kind: 'authorization-server check' as const,
    })),
  ].sort((a, b) => a.id.localeCompare(b.id));
}

/** What explain says about check `id`; an unknown id is a ConfigError naming the nearest ones. */
export async function explainCheck(id: string, caseDirs: string[] = []): Promise<Explanation> {
  const checks = await allChecks(caseDirs);
  const bare = withoutRevision(id);
  const check = checks.find((c) => c.id === bare);
  if (!check)
    throw new ConfigError(
      `no check ${JSON.stringify(id)}; nearest: ${nearestIds(
        bare,
        checks.map((c) => c.id),
      ).join(', ')}`,
    );
  return describe(check);
}

export function describe(check: Described): Explanation {
  const data = explainData();
  const row = data.requirements[check.requirement.id];
  // A check applies to the revisions it names (the initialize wire's by default); a frame rule to its requirement's.
  const own = 'revisions' in check && check.revisions ? [...check.revisions] : undefined;
  const fromRow = catalogueRevisions(row);
  const revisions =
    own ?? (check.kind === 'frame rule' && fromRow.length > 0 ? fromRow : [...REVISIONS]).filter(Boolean);
  const sorted = [...new Set(revisions)].sort().reverse();
  return {
    id: check.id,
    title: check.title,
    kind: check.kind,
    ...('source' in check && check.source ? { source: check.source } : {}),
    requirement: check.requirement,
    ...(row ? { row } : {}),
    revisions: sorted.map((revision) => ({ revision, link: citing(check.requirement, revision).spec })),
    covers: check.covers ?? [],
    faults: data.faults[check.id] ?? [],
    fix: fixFor(check.id),
  };
}

/** The text explain prints, and docs/checks/<area>.md holds (Markdown that reads as plain text). */
export function renderExplanation(e: Explanation, heading = '#'): string {
  const r = e.requirement;
  const level = e.row?.levelNote ? `${r.level} (${e.row.levelNote})` : r.level;
  const lines = [
    `${heading} ${e.id}`,
    '',
    `${e.title} (${e.kind}${e.source ? `, ${e.source}` : ''})`,
    '',
    `- requirement: ${r.id}, ${level}: ${r.text}`,
  ];
  if (e.row?.source) lines.push(`- spec: ${e.row.source}`);
  if (e.covers.length > 0) lines.push(`- also covers: ${e.covers.join(', ')}`);
  lines.push('- revisions:');
  for (const { revision, link } of e.revisions) lines.push(`  - ${revision}: ${link}`);
  const sends =
    e.kind === 'frame rule'
      ? 'Nothing of its own: it judges every frame the server sends.'
      : e.kind === 'client check'
        ? (e.row?.test ?? 'The scenarios of a client run: it judges what the client sends the test server.')
        : e.kind === 'authorization-server check'
          ? `\`mcp-conformance authorization --url ISSUER\`: ${e.row?.test ?? 'what the authorization server answered'}`
          : e.row?.test;
  if (sends) lines.push(`- sends: ${sends}`);
  if (e.row?.expected) lines.push(`- expects: ${e.row.expected}`);
  lines.push(`- verdict: ${VERDICT[r.level]}; skip where it does not apply`);
  if (e.faults.length > 0) {
    // The reference OAuth client's faults (table clients-auth) have a file of their own.
    const file =
      e.kind !== 'client check'
        ? 'servers/faults.yaml'
        : e.faults.every((f) => f.table === 'clients-auth')
          ? 'clients/auth-faults.yaml'
          : 'clients/faults.yaml';
    lines.push(`- faults that trip it (test/fixtures/${file}):`);
    for (const f of e.faults) lines.push(`  - ${f.fault} (${f.table}) → ${f.expect}: ${f.why}`);
  } else lines.push('- faults that trip it: none in the fault table (proven by its own tests)');
  lines.push(`- fix: ${e.fix}`);
  return `${lines.join('\n')}\n`;
}
