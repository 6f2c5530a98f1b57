// `mcp-conformance explain`: every check of the suite is explained from the catalogue and the fault table.
import { describe, expect, it } from 'vitest';
import { allChecks, describe as describeCheck, explainCheck, renderExplanation } from '../src/explain/explain.js';
import { REVISIONS } from '../src/schema/validators.js';

describe('explain', () => {
  it('explains every check: its requirement from the catalogue, a link per revision, what it expects, a fix', async () => {
    const checks = await allChecks();
    expect(checks.length).toBeGreaterThan(150);
    // Each check as explainCheck finds it (its lookup is tested below); one load of the suite, not one per check.
    for (const check of checks) {
      const e = describeCheck(check);
      const text = renderExplanation(e);
      expect(e.row, `${check.id}: requirement ${check.requirement.id} is a catalogue row`).toBeDefined();
      expect(e.revisions.length, check.id).toBeGreaterThan(0);
      for (const { revision, link } of e.revisions) {
        expect(text).toContain(`  - ${revision}: ${link}`);
        // A requirement of the draft (a SEP not yet in a revision) links the draft page whatever the revision.
        if (
          link.startsWith('https://modelcontextprotocol.io/specification/') &&
          !link.includes('/specification/draft/')
        )
          expect(link, check.id).toContain(`/${revision}/`);
      }
      expect(text).toContain(`- requirement: ${check.requirement.id}, ${check.requirement.level}`);
      expect(text, check.id).toMatch(/\n- (sends|expects): \S/);
      expect(text).toMatch(/\n- fix: \S/);
    }
  });

  it('names the faults that trip a check, and the revisions it applies to', async () => {
    const e = await explainCheck('transport/stdio/stdout-only-messages');
    expect(e.faults.map((f) => f.fault)).toEqual(expect.arrayContaining(['banner', 'pretty-print']));
    expect(renderExplanation(e)).toContain('- fix: Write only MCP messages to stdout');
    const stateless = await explainCheck('stateless/discover/result');
    expect(stateless.revisions.map((r) => r.revision)).toEqual(['2026-07-28']);
    const initialize = await explainCheck('lifecycle/initialize/result');
    expect(initialize.revisions.map((r) => r.revision)).toEqual([...REVISIONS]);
    // The reference OAuth client's faults are named with their own file.
    const dpop = renderExplanation(await explainCheck('client-side/auth/dpop-nonce'));
    expect(dpop).toContain('- faults that trip it (test/fixtures/clients/auth-faults.yaml):');
    expect(dpop).toContain('  - ignore-dpop-nonce (clients-auth) → fail');
    // A revision-prefixed id, as in a report of several runs, is the same check.
    expect((await explainCheck('2026-07-28/stateless/discover/result')).id).toBe('stateless/discover/result');
  });

  it('answers an unknown id with the nearest ones', async () => {
    await expect(explainCheck('tools/call/unknown-tol')).rejects.toThrow(
      /no check "tools\/call\/unknown-tol"; nearest: .*tools\/call\/unknown-tool/,
    );
  });
});
