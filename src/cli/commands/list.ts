import type { CheckDef } from '../../checks/kit/check.js';
import type { FrameRule } from '../../checks/kit/frame-rule.js';
import { SCHEMA_REVISIONS } from '../../schema/revisions.js';
import { loadSuite } from '../../suite/suite.js';
import { parseCli } from '../options.js';

/** What a check declares it applies to (the run skips it elsewhere, with the reason): `  [needs: …]`, or nothing. */
function needsOf(
  r: Partial<Pick<CheckDef, 'requires' | 'revisions' | 'extension'>> & Pick<FrameRule, 'transport'>,
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
    ...(revisions ?? []),
  ];
  return parts.length > 0 ? `  [needs: ${parts.join('; ')}]` : '';
}

/** `mcp-conformance list [--cases DIR] [--only ID] [--skip ID]`: every check with its id, level, requirement and what it needs. */
export async function listCommand(argv: string[]): Promise<number> {
  const { cases, only, skip } = parseCli(argv).options;
  const { checks, frameRules } = await loadSuite({ caseDirs: cases, only, skip });
  const rows = [
    ...checks.map((c) => ({ ...c, kind: c.source ? 'case' : 'check' })),
    ...frameRules.map((r) => ({ ...r, kind: 'frame' })),
  ].sort((a, b) => a.id.localeCompare(b.id));
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
