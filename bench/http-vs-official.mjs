#!/usr/bin/env node
// mcp-conformance side by side with the official suite (@modelcontextprotocol/conformance: `server --url`, every
// server scenario) on the same server: server-everything in Streamable HTTP mode. Each tool runs RUNS times (in
// turns); the medians of wall time and check counts are printed and written to bench/results-http.json.
// Needs `npm run build`. Not part of `npm test`.
//
//   node bench/http-vs-official.mjs [RUNS=5]
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLI,
  medianSummary,
  OFFICIAL,
  officialNodeFlags,
  officialResults,
  ROOT,
  startEverythingHttp,
  timed,
} from './lib.mjs';

const RESULTS = join(ROOT, 'bench/results-http.json');
const RUNS = Number(process.argv[2] ?? 5);

async function ours(url, work) {
  const out = await mkdtemp(join(work, 'ours-'));
  const { ms, code } = await timed([CLI, url, '--out', out, '--seed', '7']);
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
  return { ms, code, checks: report.checks.length, statuses: report.summary };
}

async function official(url, work, flags) {
  const out = await mkdtemp(join(work, 'official-'));
  const { ms, code } = await timed([...flags, OFFICIAL, 'server', '--url', url, '--suite', 'all', '--output-dir', out]);
  return { ms, code, ...(await officialResults(out)) };
}

const work = await mkdtemp(join(tmpdir(), 'mcpc-bench-'));
const { url, stop } = await startEverythingHttp();
try {
  const flags = await officialNodeFlags(work);
  /** @type {{ ours: any[], official: any[] }} */
  const results = { ours: [], official: [] };
  for (let i = 0; i < RUNS; i++) {
    // Alternate who goes first, so neither always meets a warmer server.
    const order = i % 2 === 0 ? ['ours', 'official'] : ['official', 'ours'];
    for (const who of order)
      results[who].push(who === 'ours' ? await ours(url, work) : await official(url, work, flags));
    process.stderr.write(
      `run ${i + 1}/${RUNS}: ours ${results.ours.at(-1).ms} ms, official ${results.official.at(-1).ms} ms\n`,
    );
  }
  const record = {
    date: new Date().toISOString(),
    node: process.version,
    server: '@modelcontextprotocol/server-everything streamableHttp',
    runs: RUNS,
    ours: { command: `mcp-conformance ${url} --seed 7`, ...medianSummary(results.ours) },
    official: { command: `conformance server --url ${url} --suite all`, ...medianSummary(results.official) },
  };
  await writeFile(RESULTS, `${JSON.stringify(record, null, 2)}\n`);
  const row = (name, s) =>
    `${name.padEnd(16)} ${String(s.wallMs.median).padStart(9)} ms  ${String(s.checks).padStart(6)} checks  ${JSON.stringify(s.statuses)}`;
  process.stdout.write(
    `median of ${RUNS} runs on ${record.server}\n${row('mcp-conformance', record.ours)}\n${row('official', record.official)} in ${record.official.scenarios} scenarios\nwritten to ${RESULTS}\n`,
  );
} finally {
  stop();
  await rm(work, { recursive: true, force: true });
}
