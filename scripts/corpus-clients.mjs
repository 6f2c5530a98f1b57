#!/usr/bin/env node
// `npm run corpus:clients`: judges the suite on real MCP clients nobody here wrote. Installs each package of
// corpus/clients.yaml pinned into the corpus folder (as scripts/corpus.mjs does the servers), puts the project's
// drivers beside the libraries, runs `mcp-conformance client` on every client at each seed, and writes
// corpus/clients-results.json and the clients table in corpus/README.md. Not part of `npm test`.
//
//   node scripts/corpus-clients.mjs [--seeds 7,11] [--only NAME] [-- CLIENT-ARGS…]
//   node scripts/corpus-clients.mjs --try URL     each client once against a running server, no judging
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DIR, installPinned, prefixOf, processesLeft, ROOT, split, writeReadmeTable, YAML } from './corpus-lib.mjs';

const USAGE = `usage: node scripts/corpus-clients.mjs [--seeds 7,11] [--only NAME] [-- CLIENT-ARGS…]
       node scripts/corpus-clients.mjs --try URL

Installs the clients of corpus/clients.yaml (pinned) into $MCP_CONFORMANCE_CORPUS_DIR (default
~/.cache/mcp-conformance-corpus), runs \`mcp-conformance client\` on each at every seed (arguments after -- go to it),
and writes corpus/clients-results.json and the clients table in corpus/README.md.
--try URL runs each client once against a server already serving URL ({server}: the reference server over stdio)
and prints how it ended, judging nothing: a check that the installs and drivers work.
`;
let opts;
try {
  opts = parseArgs({
    allowPositionals: true,
    options: {
      seeds: { type: 'string', default: '7' },
      only: { type: 'string' },
      try: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exit(2);
}
if (opts.values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const seeds = opts.values.seeds.split(',').map(Number);
if (seeds.some((s) => !Number.isInteger(s))) {
  process.stderr.write(`--seeds takes integers separated by commas, not ${opts.values.seeds}\n`);
  process.exit(2);
}

const OUT = join(DIR, 'out-clients');
const fill = (text) => text.replaceAll('{corpus}', DIR);
const all = YAML.parse(readFileSync(join(ROOT, 'corpus/clients.yaml'), 'utf8')).clients;
const clients = all.filter((c) => !opts.values.only || c.name === opts.values.only);
if (clients.length === 0) {
  process.stderr.write(`no client named ${opts.values.only} in corpus/clients.yaml\n`);
  process.exit(2);
}

// 1. Pinned installs, and each library's driver (with what the drivers share) beside it.
installPinned(clients.map((c) => c.labels.package));
for (const c of clients.filter((c) => c.driver)) {
  const to = join(prefixOf(split(c.labels.package)[0]), 'drivers');
  mkdirSync(to, { recursive: true });
  for (const file of ['common.mjs', `${c.driver}.mjs`])
    copyFileSync(join(ROOT, 'corpus/drivers', file), join(to, file));
}
mkdirSync(join(DIR, 'sandbox', 'home'), { recursive: true });
const envOf = (c) => ({
  ...process.env,
  ...Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, fill(v)])),
});

// --try: each client once against a running server, as its own user would run it.
if (opts.values.try) {
  const reference = `${process.execPath} ${join(ROOT, 'examples/reference-server/server.mjs')}`;
  let failed = 0;
  for (const c of clients) {
    const argv = c.command.map((a) => fill(a).replaceAll('{url}', opts.values.try).replaceAll('{server}', reference));
    const t0 = Date.now();
    const r = spawnSync(argv[0], argv.slice(1), { env: envOf(c), encoding: 'utf8', timeout: 60_000 });
    failed += r.status === 0 ? 0 : 1;
    const said = `${r.stdout}${r.stderr}`.trim().split('\n')[0]?.slice(0, 100) ?? '';
    process.stdout.write(`${c.name.padEnd(24)} exit ${r.status ?? r.signal}  ${Date.now() - t0} ms  ${said}\n`);
  }
  process.exit(failed > 0 ? 1 : 0);
}

// 2. `mcp-conformance client` on each client at each seed.
rmSync(OUT, { recursive: true, force: true });
const extra = opts.positionals;
const t0 = Date.now();
const results = [];
for (const c of clients) {
  const runs = [];
  for (const seed of seeds) {
    const out = join(OUT, `${c.name}-seed-${seed}`);
    const started = Date.now();
    const r = spawnSync(
      process.execPath,
      [
        join(ROOT, 'dist/cli/main.js'),
        'client',
        '--seed',
        String(seed),
        '--out',
        out,
        ...extra,
        '--',
        ...c.command.map(fill),
      ],
      { env: envOf(c), stdio: ['ignore', 'ignore', 'inherit'] },
    );
    runs.push({ seed, exitCode: r.status, durationMs: Date.now() - started, ...outcome(join(out, 'report.json')) });
    process.stdout.write(`${c.name} seed ${seed}: exit ${r.status}\n`);
  }
  results.push({ name: c.name, ...c.labels, runs });
}
const wallMs = Date.now() - t0;

/** The report's counts and the ids of its failures, warnings and errors (`id@revision` where a check names one). */
function outcome(file) {
  if (!existsSync(file)) return { verdict: 'no-report' };
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const ids = (status) =>
    report.checks.filter((k) => k.status === status).map((k) => (k.revision ? `${k.id}@${k.revision}` : k.id));
  return {
    client: report.client ?? report.server,
    summary: report.summary,
    fail: ids('fail'),
    warn: ids('warn'),
    error: ids('error'),
    ...(report.processes && { processes: report.processes }),
  };
}

// 3. No process of the corpus may be left running.
const left = processesLeft();
if (left.length > 0) process.stderr.write(`corpus: processes left running: ${left.join(', ')}\n`);

// 4. clients-results.json and the README table.
writeFileSync(
  join(ROOT, 'corpus/clients-results.json'),
  `${JSON.stringify({ seeds, wallMs, processesLeft: left.length, clients: results }, null, 2)}\n`,
);
const verdictOf = (run) =>
  run.verdict === 'no-report' ? 'NO REPORT' : (['PASS', 'FAIL', 'ERROR'][run.exitCode] ?? 'ERROR');
const same = (c) => new Set(c.runs.map((r) => JSON.stringify([r.exitCode, r.fail, r.error]))).size === 1;
const row = (c) => {
  const r = c.runs[0];
  const s = r.summary ?? {};
  return `| ${c.name} | ${c.package} | ${c.kind} | ${c.transport} | ${c.runs.map(verdictOf).join(' / ')} | ${s.pass ?? '–'}/${s.fail ?? '–'}/${s.warn ?? '–'}/${s.skip ?? '–'}/${s.error ?? '–'} | ${same(c) ? 'yes' : 'no'} | ${(r.durationMs / 1000).toFixed(1)} s |`;
};
const failing = new Map();
for (const c of results)
  for (const id of new Set(c.runs.flatMap((r) => r.fail ?? []))) failing.set(id, [...(failing.get(id) ?? []), c.name]);
writeReadmeTable(
  'clients-table',
  'scripts/corpus-clients.mjs',
  [
    `Seeds ${seeds.join(', ')}, ${results.length} clients, ${(wallMs / 1000).toFixed(0)} s in all; processes left: ${left.length}.`,
    '',
    '| client | package | kind | transport | verdict per seed | pass/fail/warn/skip/error (first seed) | same at every seed | time (first seed) |',
    '|---|---|---|---|---|---|---|---|',
    ...results.map(row),
    '',
    'Failing checks and the clients that fail them (the requirement and the frames are in each report):',
    '',
    ...[...failing].map(([id, names]) => `- \`${id}\`: ${names.join(', ')}`),
  ].join('\n'),
);
process.stdout.write('corpus: corpus/clients-results.json and the clients table in corpus/README.md written\n');
process.exit(left.length > 0 || results.some((c) => c.runs.some((r) => r.verdict === 'no-report')) ? 1 : 0);
