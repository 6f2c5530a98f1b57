#!/usr/bin/env node
// `npm run corpus`: judges the suite on real servers nobody here wrote. Installs each package of corpus/servers.yaml
// pinned into a cache folder outside the project (MCP_CONFORMANCE_CORPUS_DIR, default ~/.cache/mcp-conformance-corpus),
// makes the sandbox the servers are pointed at afresh, runs `mcp-conformance matrix` on them, and writes
// corpus/results.json and the table in corpus/README.md. Arguments are passed to the matrix (default: --seed 7 --jobs 2),
// but `--before FILE`: an earlier results.json (default: corpus/results.json as it was), whose time and server starts of
// each server the table shows beside the new ones.
// Not part of `npm test`: it takes minutes and installs a gigabyte.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIR, installPinned, processesLeft, ROOT, writeReadmeTable, YAML } from './corpus-lib.mjs';

const SANDBOX = join(DIR, 'sandbox');
const OUT = join(DIR, 'out');
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(
    "usage: npm run corpus [-- [--before RESULTS.json] MATRIX-ARGS…]\n\nInstalls the servers of corpus/servers.yaml (pinned) into $MCP_CONFORMANCE_CORPUS_DIR\n(default ~/.cache/mcp-conformance-corpus), runs `mcp-conformance matrix` on them (default --seed 7 --jobs 2;\nother arguments go to the matrix) and writes corpus/results.json and the table in corpus/README.md, with each\nserver's time and server starts in RESULTS.json (default: corpus/results.json as it was) beside the new ones.\n",
  );
  process.exit(0);
}
// The earlier results the table compares with, read before this run overwrites corpus/results.json.
const beforeAt = args.indexOf('--before');
const beforeFile = beforeAt >= 0 ? args.splice(beforeAt, 2)[1] : join(ROOT, 'corpus/results.json');
if (beforeAt >= 0 && (beforeFile === undefined || !existsSync(beforeFile))) {
  process.stderr.write(`corpus: --before needs an earlier results.json (${beforeFile ?? 'none given'})\n`);
  process.exit(2);
}
const before = existsSync(beforeFile) ? JSON.parse(readFileSync(beforeFile, 'utf8')) : undefined;
const given = (flag) => args.includes(flag);
const matrixArgs = [...(given('--seed') ? [] : ['--seed', '7']), ...(given('--jobs') ? [] : ['--jobs', '2']), ...args];

const text = readFileSync(join(ROOT, 'corpus/servers.yaml'), 'utf8');
const { servers } = YAML.parse(text);

// 1. Pinned installs, each package in a folder of its own.
installPinned(servers.map((s) => s.labels.package));

// 2. The sandbox, afresh: what a server writes (a memory file, a database) must not carry over into the next run.
rmSync(SANDBOX, { recursive: true, force: true });
for (const dir of [
  'fs',
  'memory',
  'libsql',
  'cron',
  'kube',
  'vault',
  'vault-out',
  'cortex',
  'onshape',
  'leanspec',
  'desktop-commander',
])
  mkdirSync(join(SANDBOX, dir), { recursive: true });
// Loaded with `node --import` by a server that fetches at start and crashes offline: every fetch answers {}.
writeFileSync(
  join(SANDBOX, 'offline-fetch.mjs'),
  "globalThis.fetch = async () => new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });\n",
);
writeFileSync(join(SANDBOX, 'fs/hello.txt'), 'hi\n');
writeFileSync(join(SANDBOX, 'vault/a.txt'), 'hello\n');
// A cluster that is never there: a closed port on loopback.
writeFileSync(
  join(SANDBOX, 'kube/config'),
  YAML.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'offline', cluster: { server: 'https://127.0.0.1:1', 'insecure-skip-tls-verify': true } }],
    contexts: [{ name: 'offline', context: { cluster: 'offline', user: 'offline', namespace: 'default' } }],
    'current-context': 'offline',
    users: [{ name: 'offline', user: { token: 'offline-fake' } }],
  }),
);

// 3. The matrix, on the servers file with {corpus} filled in.
const file = join(DIR, 'servers.yaml');
writeFileSync(file, text.replaceAll('{corpus}', DIR));
rmSync(OUT, { recursive: true, force: true });
const t0 = Date.now();
const run = spawnSync(process.execPath, [join(ROOT, 'dist/cli/main.js'), 'matrix', file, '--out', OUT, ...matrixArgs], {
  stdio: 'inherit',
});
const wallMs = Date.now() - t0;

// 4. No process of the corpus may be left running.
const left = processesLeft();
if (left.length > 0) process.stderr.write(`corpus: processes left running: ${left.join(', ')}\n`);

// 5. results.json and the README table; a matrix that wrote none (bad arguments: exit 2) has said why.
if (!existsSync(join(OUT, 'matrix.json'))) {
  process.stderr.write(
    `corpus: the matrix wrote no matrix.json (exit ${run.status}); results.json is left as it was\n`,
  );
  process.exit(run.status || 2);
}
const matrix = JSON.parse(readFileSync(join(OUT, 'matrix.json'), 'utf8'));
const seed = matrixArgs[matrixArgs.indexOf('--seed') + 1];
/** The server processes the whole run started, as its top report counts them (both eras of a dual-era run). */
function processesOf(server) {
  const file = join(OUT, server.folder, 'report.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).processes : undefined;
}
const results = {
  seed: Number(seed),
  tool: matrix.tool,
  wallMs,
  processesLeft: left.length,
  servers: matrix.servers.map((s, i) => {
    const columns = matrix.columns.filter((c) => c.server === i);
    const ids = (c, status) =>
      matrix.rows.filter((r) => r.cells[matrix.columns.indexOf(c)]?.status === status).map((r) => r.id);
    return {
      name: s.name,
      ...s.labels,
      verdict: s.verdict,
      summary: s.summary,
      durationMs: s.durationMs,
      ...(processesOf(s) && { processes: processesOf(s) }),
      exitCode: s.exitCode,
      ...(s.reason && { reason: s.reason }),
      revisions: columns.map((c) => ({
        revision: c.revision,
        verdict: c.verdict,
        summary: c.summary,
        fail: ids(c, 'fail'),
        warn: ids(c, 'warn'),
        error: ids(c, 'error'),
      })),
    };
  }),
};
writeFileSync(join(ROOT, 'corpus/results.json'), `${JSON.stringify(results, null, 2)}\n`);
const implementations = new Set(results.servers.map((s) => s.implementation));
const reported = results.servers.filter((s) => s.verdict !== 'no-report').length;
const earlier = new Map((before?.servers ?? []).map((s) => [s.name, s]));
const secs = (ms) => `${((ms ?? 0) / 1000).toFixed(1)} s`;
const row = (s) => {
  const b = earlier.get(s.name);
  return `| ${s.name} | ${s.implementation} | ${s.transport} | ${s.revisions.map((r) => r.revision).join(', ')} | ${s.verdict.toUpperCase()} | ${s.summary.pass}/${s.summary.fail}/${s.summary.warn}/${s.summary.skip}/${s.summary.error} | ${secs(s.durationMs)} | ${b ? secs(b.durationMs) : '–'} | ${s.processes ? `${s.processes.started} / ${s.processes.mostAlive}` : '–'} | ${b?.processes?.started ?? '–'} |`;
};
const table = [
  `Seed ${seed}, ${results.servers.length} servers (${reported} with a report) across ${implementations.size} implementations, ${(wallMs / 1000).toFixed(0)} s in all${before ? ` (before: ${(before.wallMs / 1000).toFixed(0)} s)` : ''}; processes left: ${left.length}.`,
  '',
  '| server | implementation | transport | revision(s) | verdict | pass/fail/warn/skip/error | time | time before | processes (started / most alive) | started before |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...results.servers.map(row),
  '',
  'Each failure, with the requirement behind it (catalogue id, level and text) and the runs that fail it (`@2026`: the',
  '2026-07-28 run of a dual-era server); warnings and messages are in results.json and the matrix.',
  '',
  ...failures(matrix),
].join('\n');
/** One line per failing check: its requirement and the runs that fail it. */
function failures(m) {
  const byCheck = new Map();
  m.rows.forEach((row) =>
    row.cells.forEach((cell, i) => {
      if (cell?.status !== 'fail') return;
      const column = m.columns[i];
      const entry = byCheck.get(row.id) ?? { requirement: cell.requirement, runs: [] };
      entry.runs.push(`${m.servers[column.server].name}${column.revision === '2026-07-28' ? '@2026' : ''}`);
      byCheck.set(row.id, entry);
    }),
  );
  return [...byCheck].map(
    ([id, { requirement: r, runs }]) => `- \`${id}\` (${r.level} [${r.id}](${r.spec})): ${r.text} — ${runs.join(', ')}`,
  );
}

writeReadmeTable('corpus-table', 'scripts/corpus.mjs', table);
process.stdout.write(
  `corpus: ${reported}/${results.servers.length} servers reported, ${implementations.size} implementations; corpus/results.json and corpus/README.md written\n`,
);
// The servers' own verdicts are the results, not a failure of this script.
process.exit(left.length > 0 || reported < results.servers.length ? 1 : 0);
