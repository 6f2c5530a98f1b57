#!/usr/bin/env node
// Server starts of this build against a baseline build (never part of `npm test`; run `npm run build` first). For
// each target, the two builds run in turns, RUNS times each (so background load hits both alike), with --seed 7 and
// the same --out; printed per target: the median wall time and the median starts (report.json processes.started) of
// each, the ratios new/base, and whether the two builds found the same FAIL and WARN check ids (the differences listed).
//
//   BENCH_BASELINE=DIR node bench/starts.mjs [TARGET…]     DIR/dist/cli/main.js is the baseline (e.g. /tmp/prev-build)
//   RUNS=N (default 3)   HOG=1: a CPU hog (a busy loop in another process) runs beside every run
//
// A TARGET is `reference` (the reference server speaking both eras over stdio) or a name from corpus/servers.yaml,
// whose {corpus} is ~/.cache/mcp-conformance-corpus. Default: reference mongodb svelte kubernetes (the go-sdk one).
// Results go to bench/results-starts.json.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { CLI, REFERENCE, ROOT, median, timed } from './lib.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const HOG = process.env.HOG === '1';
const BASELINE = process.env.BENCH_BASELINE;
const CORPUS = join(homedir(), '.cache/mcp-conformance-corpus');
const RESULTS = join(ROOT, 'bench/results-starts.json');
const DEFAULT_TARGETS = ['reference', 'mongodb', 'svelte', 'kubernetes'];

if (!BASELINE) {
  console.error('BENCH_BASELINE=DIR is required: DIR/dist/cli/main.js is the build compared against');
  process.exit(2);
}
const BUILDS = { new: CLI, base: join(resolve(BASELINE), 'dist/cli/main.js') };

/** A target's command line and environment: the reference server's, or a corpus entry's with {corpus} filled in. */
async function targetOf(name) {
  if (name === 'reference')
    return { name, command: ['node', join(REFERENCE, 'server.mjs'), '--revision', 'all'], env: {} };
  const { servers } = parse(await readFile(join(ROOT, 'corpus/servers.yaml'), 'utf8'));
  const entry = servers.find((s) => s.name === name);
  if (!entry) throw new Error(`no server named ${name} in corpus/servers.yaml`);
  if (entry.url) throw new Error(`${name} is an HTTP entry: this bench runs stdio servers`);
  const fill = (s) => String(s).replaceAll('{corpus}', CORPUS);
  return {
    name,
    command: entry.command.map(fill),
    env: Object.fromEntries(Object.entries(entry.env ?? {}).map(([k, v]) => [k, fill(v)])),
    ...(entry.cwd && { cwd: fill(entry.cwd) }),
  };
}

/** Runs `fn` with a CPU hog beside it when HOG=1. */
async function maybeHog(fn) {
  if (!HOG) return fn();
  const hog = spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' });
  try {
    return await fn();
  } finally {
    hog.kill('SIGKILL');
  }
}

/** One run of `cli` on `target`: wall time, starts, and the ids of the checks that failed or warned. */
async function runOnce(cli, target, out) {
  const args = [cli, '--seed', '7', '--out', out, ...(target.cwd ? ['--cwd', target.cwd] : [])];
  for (const [k, v] of Object.entries(target.env)) args.push('--env', `${k}=${v}`);
  const r = await maybeHog(() => timed([...args, '--', ...target.command]));
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8').catch(() => 'null'));
  if (!report) throw new Error(`${target.name}: no report (exit ${r.code})\n${r.stderr.slice(-2000)}`);
  const bad = report.checks.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${c.status} ${c.id}`);
  return { ms: r.ms, starts: report.processes?.started ?? 0, bad };
}

const ratio = (a, b) => (b > 0 ? Math.round((a / b) * 100) / 100 : null);

const targets = await Promise.all(
  (process.argv.slice(2).length ? process.argv.slice(2) : DEFAULT_TARGETS).map(targetOf),
);
const work = await mkdtemp(join(tmpdir(), 'mcpc-bench-starts-'));
const rows = [];
try {
  for (const target of targets) {
    const out = join(work, target.name);
    const runs = { new: [], base: [] };
    // In turns, so that load on the machine falls on both builds alike.
    for (let i = 0; i < RUNS; i++)
      for (const build of i % 2 === 0 ? ['new', 'base'] : ['base', 'new'])
        runs[build].push(await runOnce(BUILDS[build], target, out));
    const of = (build) => ({
      ms: median(runs[build].map((r) => r.ms)),
      starts: median(runs[build].map((r) => r.starts)),
      bad: [...new Set(runs[build].flatMap((r) => r.bad))].sort(),
    });
    const [now, base] = [of('new'), of('base')];
    const row = {
      target: target.name,
      new: { ms: now.ms, starts: now.starts },
      base: { ms: base.ms, starts: base.starts },
      ratio: { ms: ratio(now.ms, base.ms), starts: ratio(now.starts, base.starts) },
      sameFindings: now.bad.join() === base.bad.join(),
      onlyNew: now.bad.filter((id) => !base.bad.includes(id)),
      onlyBase: base.bad.filter((id) => !now.bad.includes(id)),
    };
    rows.push(row);
    console.log(
      `${target.name.padEnd(12)} new ${now.ms} ms ${now.starts} starts · base ${base.ms} ms ${base.starts} starts · ` +
        `ratio ${row.ratio.ms} time, ${row.ratio.starts} starts · FAIL/WARN ${row.sameFindings ? 'same' : 'differ'}`,
    );
    for (const id of row.onlyNew) console.log(`  only new:  ${id}`);
    for (const id of row.onlyBase) console.log(`  only base: ${id}`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
await writeFile(
  RESULTS,
  `${JSON.stringify({ date: new Date().toISOString(), runs: RUNS, hog: HOG, baseline: BUILDS.base, rows }, null, 2)}\n`,
);
console.log(`written ${RESULTS}`);
