// The tool's peak RSS (and verdict) on bench/servers/wide-frames.mjs: each session of the run receives a 15 MiB frame
// as it starts, all of them at about the same time. Needs `npm run build`. Not part of `npm test`.
//   node bench/wide-frames.mjs [RUNS]                  BENCH_BASELINE=DIR node bench/wide-frames.mjs: also DIR's build
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, RSS_METHOD, median, timed } from './lib.mjs';

const RUNS = Number(process.argv[2] ?? 5);
const SERVER = join(ROOT, 'bench/servers/wide-frames.mjs');
const builds = {
  tool: CLI,
  ...(process.env.BENCH_BASELINE && { base: join(process.env.BENCH_BASELINE, 'dist/cli/main.js') }),
};
/** @type {Record<string, { ms: number, rssMB: number, code: number | null, verdict: string }[]>} */
const rows = Object.fromEntries(Object.keys(builds).map((name) => [name, []]));
for (let i = 0; i < RUNS; i++) {
  for (const [name, cli] of Object.entries(builds)) {
    const out = await mkdtemp(join(tmpdir(), 'mcpc-wide-'));
    const r = await timed([cli, '--out', out, SERVER]);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
    rows[name].push({ ...r, verdict: `exit ${r.code} ${JSON.stringify(report.summary)}` });
    process.stderr.write(`run ${i + 1}/${RUNS} ${name}: ${r.rssMB} MB, ${r.ms} ms, exit ${r.code}\n`);
  }
}
console.log(`peak RSS: ${RSS_METHOD}; medians of ${RUNS} runs`);
for (const [name, runs] of Object.entries(rows)) {
  console.log(
    `${name.padEnd(5)} peak RSS ${median(runs.map((r) => r.rssMB))} MB (max ${Math.max(...runs.map((r) => r.rssMB))}), wall ${median(runs.map((r) => r.ms))} ms, ${[...new Set(runs.map((r) => r.verdict))].join(' | ')}`,
  );
}
