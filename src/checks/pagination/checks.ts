import { SCHEMA_REVISIONS } from '../../schema/validators.js';
import { type CheckDef, type Outcome, fail, pass, skip, warn, worst } from '../kit/check.js';
import { requirement } from '../kit/requirement.js';

export const PAGINATION_CHECKS: CheckDef[] = [
  {
    id: 'pagination/walk',
    revisions: SCHEMA_REVISIONS,
    title: 'Every list can be walked to its end, without repeats',
    requirement: requirement(
      'page.terminate',
      'SHOULD',
      'server/utilities/pagination#implementation-guidelines',
      'Cursors are stable: following nextCursor ends, and no item appears on two pages',
    ),
    async run(ctx) {
      if (ctx.profile.walks.length === 0)
        return skip('the server declares no paginated capability (tools, resources, prompts)');
      const outcomes = ctx.profile.walks.map((w): Outcome => {
        // A declared capability whose list method fails is not served as declared (cap.*.declared: MUST).
        if (w.problem?.startsWith('page')) return fail(`${w.method}: ${w.problem}`, { actual: w });
        if (w.problem) return warn(`${w.method}: ${w.problem}`, { actual: w });
        if (w.duplicates.length > 0)
          return warn(`${w.method}: ${w.duplicates.length} item(s) on more than one page`, { actual: w.duplicates });
        return pass(`${w.method}: ${w.pages} page(s)`);
      });
      return worst(outcomes);
    },
  },
];
