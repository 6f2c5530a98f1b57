import { describe, expect, it } from 'vitest';
import { loadSuite } from '../src/suite/suite.js';
import { runConformance, verdict, type Report, type Serve } from '../src/index.js';
import { mergeReports } from '../src/report/merge.js';
import { parseShard, shardSuite } from '../src/suite/shard.js';
import { REFERENCE, runCliHere } from './helpers.js';
import { createServer, serveStreams } from '../examples/reference-server/mcp.mjs';

describe('shards', () => {
  it('parse i/n with 1 ≤ i ≤ n', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/2', '3/2', '1/0', '1', 'a/b', '1/2/3']) expect(parseShard(bad), bad).toBeUndefined();
  });

  it('deal every active check to exactly one shard whatever the load order, and every frame rule to every shard', async () => {
    const suite = await loadSuite();
    const reversed = { ...suite, checks: [...suite.checks].reverse() };
    const shards = [1, 2, 3].map((index) => shardSuite(suite, { index, count: 3 }));
    expect(shards.flatMap((s) => s.checks.map((c) => c.id)).sort()).toEqual(suite.checks.map((c) => c.id).sort());
    for (const s of shards) expect(s.frameRules).toEqual(suite.frameRules);
    for (const [i, s] of shards.entries()) {
      expect(
        shardSuite(reversed, { index: i + 1, count: 3 })
          .checks.map((c) => c.id)
          .sort(),
      ).toEqual(s.checks.map((c) => c.id).sort());
      // Round robin keeps shards within one check of each other.
      expect(Math.abs(s.checks.length - suite.checks.length / 3)).toBeLessThan(1);
    }
  });
});

describe('sharded runs of the reference server', () => {
  it('merged, equal the unsharded run: the same checks with the same statuses and verdict', async () => {
    // One seed for the three runs, so the generated checks draw the same values; the server runs in this process.
    const serve: Serve = (streams) => serveStreams(createServer(), streams);
    const [whole, one, two] = await Promise.all(
      [undefined, '1/2', '2/2'].map((shard) => runConformance({ serve, timeout: 5, seed: 42, shard })),
    );
    const merged = mergeReports([
      { source: 'shard 1/2', report: one },
      { source: 'shard 2/2', report: two },
    ]).report;
    const statuses = (r: Report) => Object.fromEntries(r.checks.map((c) => [c.id, c.status]));
    expect(statuses(merged)).toEqual(statuses(whole));
    expect(merged.summary).toEqual(whole.summary);
    expect(verdict(merged)).toBe(verdict(whole));
    // The shards split the active checks between them.
    const frameRules = new Set((await loadSuite()).frameRules.map((r) => r.id));
    const active = (r: Report) => r.checks.map((c) => c.id).filter((id) => !frameRules.has(id));
    expect([...active(one), ...active(two)].sort()).toEqual(active(whole).sort());
    expect(active(one).filter((id) => active(two).includes(id))).toEqual([]);
  });

  it('rejects a shard that does not exist with exit 2', async () => {
    const r = await runCliHere(['--shard', '3/2', REFERENCE]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe('mcp-conformance: --shard: must be i/n with 1 ≤ i ≤ n, not "3/2"');
  });
});
