#!/usr/bin/env node
// A whole client run side by side with the official suite's on the same client: the contract client on the
// official TypeScript SDK v2 (bench/clients/sdk-v2.mjs, both eras). Ours: `mcp-conformance client` (every scenario
// that applies, both eras); official: `conformance client --suite all` (@modelcontextprotocol/conformance, its
// scenarios in parallel, the authorization ones among them). Each tool runs RUNS times, in turns; the medians of wall
// time and the counts are printed and written to bench/results-client.json. Needs `npm run build`. Not part of
// `npm test`. Target: ours ≤ 10 s, and no slower than the official. A third row, ours with `--max-starts 1` (the
// scenarios one after another), is the baseline of running them side by side.
//
//   node bench/client-vs-official.mjs [RUNS=3]
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, medianSummary, OFFICIAL, officialNodeFlags, officialResults, ROOT, timed } from './lib.mjs';

const RESULTS = join(ROOT, 'bench/results-client.json');
const RUNS = Number(process.argv[2] ?? 3);
const CLIENT = [process.execPath, join(ROOT, 'bench/clients/sdk-v2.mjs')];

async function ours(work, extra = []) {
  const out = await mkdtemp(join(work, 'ours-'));
  const { ms, code, stderr } = await timed([CLI, 'client', '--seed', '7', ...extra, '--out', out, '--', ...CLIENT]);
  let report;
  try {
    report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
  } catch {
    throw new Error(`mcp-conformance client wrote no report (exit ${code}): ${stderr.slice(-500)}`);
  }
  return { ms, code, checks: report.checks.length, statuses: report.summary, processes: report.processes?.started };
}

async function official(work, flags) {
  const out = await mkdtemp(join(work, 'official-'));
  const { ms, code } = await timed([
    ...flags,
    OFFICIAL,
    'client',
    '--command',
    CLIENT.join(' '),
    '--suite',
    'all',
    '--output-dir',
    out,
  ]);
  return { ms, code, ...(await officialResults(out)) };
}

const work = await mkdtemp(join(tmpdir(), 'mcpc-bench-client-'));
try {
  const flags = await officialNodeFlags(work);
  /** @type {{ ours: any[], sequential: any[], official: any[] }} */
  const results = { ours: [], sequential: [], official: [] };
  const run = {
    ours: () => ours(work),
    sequential: () => ours(work, ['--max-starts', '1']),
    official: () => official(work, flags),
  };
  for (let i = 0; i < RUNS; i++) {
    // Rotate who goes first, so none always meets a machine another has just warmed or loaded.
    const rows = ['ours', 'sequential', 'official'];
    const order = [...rows.slice(i % 3), ...rows.slice(0, i % 3)];
    for (const who of order) results[who].push(await run[who]());
    process.stderr.write(
      `run ${i + 1}/${RUNS}: ours ${results.ours.at(-1).ms} ms, one after another ${results.sequential.at(-1).ms} ms, official ${results.official.at(-1).ms} ms\n`,
    );
  }
  const record = {
    date: new Date().toISOString(),
    node: process.version,
    client: '@modelcontextprotocol/client (SDK v2) contract client, bench/clients/sdk-v2.mjs',
    runs: RUNS,
    ours: { command: `mcp-conformance client --seed 7 -- ${CLIENT.join(' ')}`, ...medianSummary(results.ours) },
    sequential: {
      command: `mcp-conformance client --seed 7 --max-starts 1 -- ${CLIENT.join(' ')}`,
      ...medianSummary(results.sequential),
    },
    official: {
      command: `conformance client --command '${CLIENT.join(' ')}' --suite all`,
      ...medianSummary(results.official),
    },
  };
  await writeFile(RESULTS, `${JSON.stringify(record, null, 2)}\n`);
  const row = (name, s) =>
    `${name.padEnd(16)} ${String(s.wallMs.median).padStart(9)} ms  ${String(s.checks).padStart(6)} checks  ${JSON.stringify(s.statuses)}`;
  process.stdout.write(
    `median of ${RUNS} runs on the SDK v2 contract client\n${row('mcp-conformance', record.ours)}\n${row('one after another', record.sequential)}\n${row('official', record.official)} in ${record.official.scenarios} scenarios\nratio ours/official ${(record.ours.wallMs.median / record.official.wallMs.median).toFixed(2)}, side by side/one after another ${(record.ours.wallMs.median / record.sequential.wallMs.median).toFixed(2)}\nwritten to ${RESULTS}\n`,
  );
} finally {
  await rm(work, { recursive: true, force: true });
}
