#!/usr/bin/env node
// mcp-conformance side by side with the official suite (@modelcontextprotocol/conformance: `server --url`, every
// server scenario) on the same server: server-everything in Streamable HTTP mode. Each tool runs RUNS times (in
// turns); the medians of wall time and check counts are printed and written to bench/results-http.json.
// Needs `npm run build`. Not part of `npm test`.
//
//   node bench/http-vs-official.mjs [RUNS=5]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist/cli/main.js');
const OFFICIAL = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const RESULTS = join(ROOT, 'bench/results-http.json');
const RUNS = Number(process.argv[2] ?? 5);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once the URL gives any HTTP answer. */
async function answers(url, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const req = http.get(url, (res) => {
        res.destroy();
        resolve(true);
      });
      req.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs a command to its end; resolves with its wall time in ms and its exit code. */
function timed(args) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ ms: Math.round(performance.now() - t0), code }));
  });
}

/**
 * The official CLI imports fs.globSync, which Node gained in 22 (it is only used by its tier-check command).
 * On an older Node it is given a stub through a module hook; the `server` command never calls it.
 */
async function nodeFlags(dir) {
  if (typeof fs.globSync === 'function') return [];
  await writeFile(join(dir, 'fs.mjs'), "import fs from 'node:fs';\nexport * from 'node:fs';\nexport default fs;\nexport function globSync() { throw new Error('fs.globSync needs Node 22'); }\n");
  await writeFile(
    join(dir, 'hooks.mjs'),
    `export async function resolve(specifier, context, next) {\n  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('@modelcontextprotocol/conformance')) return { url: ${JSON.stringify(pathToFileURL(join(dir, 'fs.mjs')).href)}, shortCircuit: true };\n  return next(specifier, context);\n}\n`,
  );
  await writeFile(join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
  return ['--import', join(dir, 'register.mjs')];
}

async function ours(url, work) {
  const out = await mkdtemp(join(work, 'ours-'));
  const { ms, code } = await timed([CLI, url, '--out', out, '--seed', '7']);
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
  return { ms, code, checks: report.checks.length, statuses: report.summary };
}

async function official(url, work, flags) {
  const out = await mkdtemp(join(work, 'official-'));
  const { ms, code } = await timed([...flags, OFFICIAL, 'server', '--url', url, '--suite', 'all', '--output-dir', out]);
  const statuses = {};
  let checks = 0;
  const scenarios = await readdir(out);
  for (const dir of scenarios) {
    for (const check of JSON.parse(await readFile(join(out, dir, 'checks.json'), 'utf8'))) {
      statuses[check.status] = (statuses[check.status] ?? 0) + 1;
      checks++;
    }
  }
  return { ms, code, checks, scenarios: scenarios.length, statuses };
}

/** Medians of wall time and of each count, plus every run's wall time. */
function summary(runs) {
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r.statuses)))];
  return {
    wallMs: { median: median(runs.map((r) => r.ms)), runs: runs.map((r) => r.ms) },
    checks: median(runs.map((r) => r.checks)),
    ...(runs[0].scenarios !== undefined && { scenarios: median(runs.map((r) => r.scenarios)) }),
    statuses: Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r.statuses[k] ?? 0))])),
    exitCodes: [...new Set(runs.map((r) => r.code))],
  };
}

const work = await mkdtemp(join(tmpdir(), 'mcpc-bench-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}/mcp`;
// Its own process group, so the whole tree goes when the bench ends. (server-everything binds every interface;
// the bench talks to it on 127.0.0.1 only.)
const server = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore', detached: true });
const stop = () => {
  try {
    process.kill(-server.pid, 'SIGKILL');
  } catch {
    // already gone
  }
};
process.on('exit', stop);
try {
  await answers(url);
  const flags = await nodeFlags(work);
  const results = { ours: [], official: [] };
  for (let i = 0; i < RUNS; i++) {
    // Alternate who goes first, so neither always meets a warmer server.
    const order = i % 2 === 0 ? ['ours', 'official'] : ['official', 'ours'];
    for (const who of order) results[who].push(who === 'ours' ? await ours(url, work) : await official(url, work, flags));
    process.stderr.write(`run ${i + 1}/${RUNS}: ours ${results.ours.at(-1).ms} ms, official ${results.official.at(-1).ms} ms\n`);
  }
  const record = {
    date: new Date().toISOString(),
    node: process.version,
    server: '@modelcontextprotocol/server-everything streamableHttp',
    runs: RUNS,
    ours: { command: `mcp-conformance ${url} --seed 7`, ...summary(results.ours) },
    official: { command: `conformance server --url ${url} --suite all`, ...summary(results.official) },
  };
  await writeFile(RESULTS, `${JSON.stringify(record, null, 2)}\n`);
  const row = (name, s) => `${name.padEnd(16)} ${String(s.wallMs.median).padStart(9)} ms  ${String(s.checks).padStart(6)} checks  ${JSON.stringify(s.statuses)}`;
  process.stdout.write(`median of ${RUNS} runs on ${record.server}\n${row('mcp-conformance', record.ours)}\n${row('official', record.official)} in ${record.official.scenarios} scenarios\nwritten to ${RESULTS}\n`);
} finally {
  stop();
  await rm(work, { recursive: true, force: true });
}
