// report.json says what each server process of a stdio run was started for, and lists every one it counted.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../src/index.js';
import { REFERENCE } from '../helpers.js';

const WHY =
  /^(auto probe|shared session|started ahead|fresh session for \S+|scratch session|second connection|alone: \S+ again on a server of its own|restart after the server was lost|shared session again, in place of one a scratch turn killed or left disturbed)(, taken as .+)?$|^scratch session replacing a session \S+ (killed|disturbed)$/;

// One at a time: processes.started counts every process this test process starts meanwhile.
describe('processes.servers', () => {
  it('lists every process of a dual-era run (--revision auto), each run its own, with why and its checks', async () => {
    const report = await runConformance({
      target: [process.execPath, join(REFERENCE, 'server.mjs'), '--revision', 'all'],
      seed: 7,
    });
    const { processes } = report;
    expect(processes?.servers?.length).toBe(processes?.started);
    for (const s of processes!.servers!) {
      expect(s.for).toMatch(WHY);
      expect(s.pid).toBeGreaterThan(0);
    }
    // The auto probe's session goes on as the initialize wire's shared session, which most checks used.
    const probe = processes!.servers!.find((s) => s.for.startsWith('auto probe'));
    expect(probe).toMatchObject({ for: 'auto probe, taken as shared session', revision: '2025-11-25' });
    expect(probe!.checks.length).toBeGreaterThan(10);
    // A fresh session serves the check it was started for (and the ones it hands on to).
    for (const s of processes!.servers!.filter((s) => s.for.startsWith('fresh session for ')))
      expect(s.checks[0]).toBe(s.for.slice('fresh session for '.length));
    expect(new Set(processes!.servers!.map((s) => s.revision))).toEqual(new Set(['2025-11-25', '2026-07-28']));
  });

  it('lists as many as a one-revision run counts', async () => {
    const report = await runConformance({ target: REFERENCE, revision: '2025-11-25', seed: 7 });
    const { processes } = report;
    expect(processes?.servers?.length).toBe(processes?.started);
    expect(processes?.servers?.[0]).toMatchObject({ for: 'shared session', revision: '2025-11-25' });
    // The checks listed are the run's (many judge discovery's answers and use no process of their own).
    const ids = new Set(report.checks.map((c) => c.id));
    const listed = processes!.servers!.flatMap((s) => s.checks);
    expect(listed.filter((id) => !ids.has(id))).toEqual([]);
    // Shutting the shared server down is a use of it.
    expect(processes!.servers![0].checks).toContain('lifecycle/shutdown/stdin-close');
  });
});
