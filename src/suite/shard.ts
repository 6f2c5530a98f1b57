import type { Suite } from './suite.js';

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** `"2/3"` → `{index: 2, count: 3}`; undefined for anything else. */
export function parseShard(text: string): Shard | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) return undefined;
  const [index, count] = [Number(m[1]), Number(m[2])];
  return index >= 1 && index <= count ? { index, count } : undefined;
}

/**
 * The part of a suite one shard runs: its active checks, dealt round robin in id order so that every shard of the
 * same suite agrees on the split whatever order the checks were loaded in, and every frame rule. A frame rule judges
 * the traffic its run sees, which a shard has only part of; so each shard reports it, and merging keeps the worst
 * status, which is what one run over all the traffic would have found.
 */
export function shardSuite(suite: Suite, shard: Shard): Suite {
  const ids = suite.checks.map((c) => c.id).sort();
  const mine = new Set(ids.filter((_, i) => i % shard.count === shard.index - 1));
  return { ...suite, checks: suite.checks.filter((c) => mine.has(c.id)) };
}
