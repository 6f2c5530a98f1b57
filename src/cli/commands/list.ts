import type { CheckDef } from '../../checks/kit/check.js';
import type { FrameRule } from '../../checks/kit/frame-rule.js';
import { SCHEMA_REVISIONS } from '../../schema/revisions.js';
import { selects } from '../../suite/glob.js';
import { loadSuite } from '../../suite/suite.js';
import { parseCli } from '../options.js';

/** What a check declares it applies to (the run skips it elsewhere, with the reason): `  [needs: …]`, or nothing. */
function needsOf(
  r: Partial<Pick<CheckDef, 'requires' | 'revisions' | 'extension'>> &
    Pick<FrameRule, 'transport'> & { scenarios?: readonly string[] },
): string {
  const revisions =
    r.revisions &&
    (r.revisions.length === SCHEMA_REVISIONS.length ? ['every revision'] : [`revision ${r.revisions.join(', ')}`]);
  const parts = [
    ...(r.extension ? [`extension ${r.extension}`] : []),
    ...(r.requires?.capabilities ?? []).map((c) => `${c} capability`),
    ...(r.requires?.missingCapabilities ?? []).map((c) => `no ${c} capability`),
    ...(r.requires?.profile ?? []).map((f) => `some ${f}`),
    ...(r.transport ? [`${r.transport} transport`] : []),
    ...(r.scenarios ? [`scenario ${r.scenarios.join(', ')}`] : []),
    ...(revisions ?? []),
  ];
  return parts.length > 0 ? `  [needs: ${parts.join('; ')}]` : '';
}

/**
 * `mcp-conformance list [--server] [--cases DIR] [--only ID] [--skip ID]`: every check with its id, level, requirement
 * and what it needs (`--server`: the server scenarios first); `list --client`: every client scenario, then every client-side check;
 * `list --authorization`: the checks of `mcp-conformance authorization`.
 */
export async function listCommand(argv: string[]): Promise<number> {
  if (argv.includes('--client')) return listClient(argv.filter((a) => a !== '--client'));
  if (argv.includes('--authorization')) return listAuthorization(argv.filter((a) => a !== '--authorization'));
  const { cases, only, skip } = parseCli(argv.filter((a) => a !== '--server')).options;
  const { checks, frameRules } = await loadSuite({ caseDirs: cases, only, skip });
  const rows = [
    ...checks.map((c) => ({ ...c, kind: c.source ? 'case' : 'check' })),
    ...frameRules.map((r) => ({ ...r, kind: 'frame' })),
  ].sort((a, b) => a.id.localeCompare(b.id));
  // `list --server`, as the official suite means it, first names the server scenarios: our areas, each the folder
  // `server-<area>-…` of the official results layout (docs/official-command-line.md).
  if (argv.includes('--server'))
    process.stdout.write(
      `Server scenarios (areas): ${[...new Set(rows.map((c) => c.id.split('/')[0]))].sort().join(', ')}\n\n`,
    );
  const width = Math.max(...rows.map((r) => r.id.length));
  for (const r of rows) {
    process.stdout.write(
      `${r.id.padEnd(width)}  ${r.requirement.level.padEnd(6)}  ${r.kind.padEnd(5)}  ${r.requirement.id}  ${r.title}${needsOf(r)}\n`,
    );
  }
  const requirements = new Set(rows.flatMap((r) => [r.requirement.id, ...(('covers' in r && r.covers) || [])]));
  process.stdout.write(
    `${rows.length} checks (${checks.filter((c) => c.source).length} cases, ${frameRules.length} frame rules), covering ${requirements.size} requirement ids\n`,
  );
  return 0;
}

/** The rows of a table, each column padded to its widest cell (the last one left as it is). */
const table = (rows: string[][]) =>
  rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(Math.max(...rows.map((r) => r[i].length)))))
      .join('  '),
  );

/** `list --client`: each scenario a client run has (name, tier, revisions, what it asks of the client), then the checks. */
async function listClient(argv: string[]): Promise<number> {
  const { only, skip } = parseCli(argv).options;
  const { CLIENT_CHECKS, CLIENT_SCENARIOS } = await import('../../checks/client-side/index.js');
  const { CLIENT_AUTH_CHECKS } = await import('../../checks/client-side/auth.js');
  const { SCENARIOS: AUTH_SCENARIOS } = await import('../../auth/scenarios.js');
  const scenarios = [
    ...CLIENT_SCENARIOS.map((s) => [
      s.name,
      'core',
      s.revisions.join(', '),
      `${s.asks ?? s.description}${s.transport ? `  [${s.transport} only]` : ''}`,
    ]),
    ...AUTH_SCENARIOS.map((s) => [s.name, s.tier, s.revisions.join(', '), s.description]),
  ];
  scenarios.unshift(['scenario', 'tier', 'revisions', 'what it asks of the client']);
  const checks = [...CLIENT_CHECKS, ...CLIENT_AUTH_CHECKS].filter((c) => selects(c.id, only, skip));
  const lines = [
    ...table(scenarios),
    '',
    ...table([
      ['check', 'level', 'requirement', 'title'],
      ...checks.map((c) => [c.id, c.requirement.level, c.requirement.id, `${c.title}${needsOf(c)}`]),
    ]),
    `${CLIENT_SCENARIOS.length} MCP scenarios (tier core), ${AUTH_SCENARIOS.length} authorization scenarios (auth/…, run with --auth or by name); ${checks.length} client-side checks`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** `list --authorization`: the checks `mcp-conformance authorization --url ISSUER` runs on an authorization server. */
async function listAuthorization(argv: string[]): Promise<number> {
  const { only, skip } = parseCli(argv).options;
  const { AUTHZ_CHECKS } = await import('../../checks/authz/checks.js');
  const checks = AUTHZ_CHECKS.filter((c) => selects(c.id, only, skip));
  const lines = table([
    ['check', 'level', 'requirement', 'title'],
    ...checks.map((c) => [c.id, c.requirement.level, c.requirement.id, c.title]),
  ]);
  lines.push(`${checks.length} authorization-server checks (mcp-conformance authorization --url ISSUER runs them)`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
