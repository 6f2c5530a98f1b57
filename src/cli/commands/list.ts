import { loadSuite } from '../../suite/suite.js';
import { parseCli } from '../options.js';

/** `mcp-conformance list [--cases DIR] [--only ID] [--skip ID]`: every check with its id, level and requirement. */
export async function listCommand(argv: string[]): Promise<number> {
  const { cases, only, skip } = parseCli(argv).options;
  const { checks, frameRules } = await loadSuite({ caseDirs: cases, only, skip });
  const rows = [
    ...checks.map((c) => ({ ...c, kind: c.source ? 'case' : 'check' })),
    ...frameRules.map((r) => ({ ...r, kind: 'frame' })),
  ].sort((a, b) => a.id.localeCompare(b.id));
  const width = Math.max(...rows.map((r) => r.id.length));
  for (const r of rows) {
    process.stdout.write(`${r.id.padEnd(width)}  ${r.requirement.level.padEnd(6)}  ${r.kind.padEnd(5)}  ${r.requirement.id}  ${r.title}\n`);
  }
  const requirements = new Set(rows.flatMap((r) => [r.requirement.id, ...(('covers' in r && r.covers) || [])]));
  process.stdout.write(`${rows.length} checks (${checks.filter((c) => c.source).length} cases, ${frameRules.length} frame rules), covering ${requirements.size} requirement ids\n`);
  return 0;
}
