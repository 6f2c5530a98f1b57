#!/usr/bin/env node
// Speed of the generated checks against the reference server over stdio: generated tools/call requests per
// second (one property at a time, frame checks on, as in a real run), and the whole default suite, in process
// and as the CLI. Medians of several runs. Not part of `npm test`; run `npm run build` first.
//   node bench/properties.mjs [repeats]
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadSuite } from '../dist/suite/suite.js';
import { runSuite } from '../dist/run/run.js';
import { DEFAULTS } from '../dist/config/defaults.js';
import { resolveTarget } from '../dist/target/resolve.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REFERENCE = join(ROOT, 'examples/reference-server');
const REPEATS = Number(process.argv[2] ?? 7);
const CALLS = 5000;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const plan = await resolveTarget({ target: REFERENCE });
/**
 * The run options this bench fixes; the caller gives the rest (the checks, the values per property, the seed).
 * @param {Omit<import('../dist/run/run.js').RunOptions, 'plan' | 'protocolVersion' | 'timeoutMs' | 'budgetMs' | 'strict' | 'toolCalls'>} extra
 */
const run = (extra) =>
  runSuite({
    plan,
    protocolVersion: '2025-11-25',
    timeoutMs: 10_000,
    budgetMs: 120_000,
    strict: false,
    toolCalls: { mode: 'safe', allow: [] },
    ...extra,
  });

/** Generated tools/call requests per second of each tools/call property, in process: median and every run. */
export async function propertyRates(repeats = REPEATS, calls = CALLS) {
  const out = {};
  for (const id of ['tools/call/valid-arguments', 'tools/call/invalid-arguments']) {
    const rates = [];
    for (let i = 0; i < repeats; i++) {
      const report = await run({ suite: await loadSuite({ only: [id] }), runs: calls, seed: i });
      const check = /** @type {(typeof report.checks)[number]} */ (report.checks.find((c) => c.id === id));
      if (check.status !== 'pass') throw new Error(`${id}: ${check.status} ${check.message}`);
      // Each tool has its own share (boundary values first) and a value drawn twice is sent once: count what was sent.
      const sent = Number(/** @type {RegExpExecArray} */ (/^(\d+) generated/.exec(check.message))[1]);
      rates.push(Math.round((sent / check.durationMs) * 1000));
    }
    out[id] = { median: median(rates), runs: rates, calls };
  }
  return out;
}

// Run as a script (bench/run.mjs imports propertyRates only).
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [id, r] of Object.entries(await propertyRates())) {
    console.log(
      `${id}: median ${r.median} generated tools/call/s (${r.calls} calls, ${REPEATS} runs: ${r.runs.join(', ')})`,
    );
  }

  const inProcess = [];
  const suite = await loadSuite({});
  for (let i = 0; i < REPEATS; i++) {
    const report = await run({ suite, runs: DEFAULTS.runs, seed: i });
    if (report.summary.fail + report.summary.error > 0)
      throw new Error(`default suite: ${JSON.stringify(report.summary)}`);
    inProcess.push(report.durationMs);
  }
  console.log(`default suite in process: median ${median(inProcess)} ms (${inProcess.join(', ')})`);

  const cli = [];
  const out = mkdtempSync(join(tmpdir(), 'mcpc-bench-'));
  for (let i = 0; i < REPEATS; i++) {
    const t = performance.now();
    execFileSync(process.execPath, [join(ROOT, 'dist/cli/main.js'), '--out', out, '--seed', String(i), REFERENCE], {
      stdio: 'ignore',
    });
    cli.push(Math.round(performance.now() - t));
  }
  console.log(`default suite via the CLI (wall, reports written): median ${median(cli)} ms (${cli.join(', ')})`);
}
