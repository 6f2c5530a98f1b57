import { caseCheck } from '../checks/cases/engine.js';
import { BUILTIN_CASES, loadCases } from '../checks/cases/load.js';
import { ConfigError } from '../config/yaml-file.js';
import type { CheckDef } from '../checks/kit/check.js';
import type { FrameRule } from '../checks/kit/frame-rule.js';
import { FRAME_RULES } from '../checks/index.js';
import { CHECKS } from '../checks/index.js';
import { PROPERTIES } from '../checks/index.js';
import { GLOB_RULE, globToRegExp, nearestIds } from './glob.js';

/** The checks of one run: active checks (code, cases, properties) and passive frame rules. */
export interface Suite {
  checks: CheckDef[];
  frameRules: FrameRule[];
}

export interface SuiteOptions {
  /** Folders of the user's own cases, run beside the built-in ones. */
  caseDirs?: string[];
  /** Ids or globs (`tools/**`, `*` within one segment) to keep; default all. */
  only?: string[];
  /** Ids or globs to leave out. */
  skip?: string[];
}

/** Loads the built-in suite plus the user's cases (a malformed file throws ConfigError) and applies --only/--skip. */
export async function loadSuite(options: SuiteOptions = {}): Promise<Suite> {
  const cases = await loadCases([BUILTIN_CASES, ...(options.caseDirs ?? [])]);
  const checks = [...CHECKS, ...PROPERTIES, ...cases.map(caseCheck)];
  const ids = new Set<string>();
  for (const c of [...checks, ...FRAME_RULES]) {
    if (ids.has(c.id))
      throw new ConfigError(
        `${'source' in c && c.source ? `${c.source}: ` : ''}check id ${c.id} is already a built-in check`,
      );
    ids.add(c.id);
  }
  for (const [flag, globs] of [
    ['--only', options.only],
    ['--skip', options.skip],
  ] as const) {
    for (const glob of globs ?? []) unmatched(flag, glob, [...ids]);
  }
  const only = options.only?.map(globToRegExp);
  const skip = options.skip?.map(globToRegExp) ?? [];
  const keep = (id: string) => (!only || only.some((r) => r.test(id))) && !skip.some((r) => r.test(id));
  return { checks: checks.filter((c) => keep(c.id)), frameRules: FRAME_RULES.filter((r) => keep(r.id)) };
}

/** A selection that matches no check is a mistake (a typo, or `*` where ids go deeper), never a run of nothing. */
function unmatched(flag: string, glob: string, ids: string[]): void {
  const re = globToRegExp(glob);
  if (ids.some((id) => re.test(id))) return;
  const star = glob.includes('*') ? ` (${GLOB_RULE})` : '';
  throw new ConfigError(`${flag} ${glob} matches no check${star}; nearest: ${nearestIds(glob, ids).join(', ')}`);
}
