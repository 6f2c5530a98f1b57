#!/usr/bin/env node
// The benchmark suite (`npm run bench`; never part of `npm test`; run `npm run build` first). In one run, on the
// same machine, side by side, RUNS times each in turns (so background load hits every row alike):
//   floor         a minimal hand-written client spawns the reference server, initializes, lists everything and
//                 sends PINGS pings: the physical limit of a run
//   ref-stdio     the full default suite (cases + properties) on the reference server over stdio
//   ref-http      the same over Streamable HTTP (--http-url … --port auto -- node examples/reference-server/http.mjs)
//   every-stdio   the full default suite on @modelcontextprotocol/server-everything over stdio
//   every-http    the full default suite on server-everything over Streamable HTTP (one server for all runs)
//   every-http-no-tools  the same with --tool-calls none: no tool called, so no wait on its 10 s operation
//   official      @modelcontextprotocol/conformance `server --url` on that same server (all scenarios)
//   huge-frame    the full default suite on bench/servers/huge-frame.mjs (a 50 MiB resource) over stdio
//   wide-frames   the full default suite on bench/servers/wide-frames.mjs (each session's initialize: 15 MiB)
//   huge-frame+hog  the huge-frame row with a CPU hog (a busy loop) on another core beside it
//   same-work     a hand-written client doing the protocol work of a ref-stdio run (bench/same-work.mjs): as many
//                 server processes, the same lines in the same order, no checking; ref-stdio / same-work is the
//                 tool's own overhead
// plus the generated tools/call requests per second of the property engine (bench/properties.mjs, in process).
// Every CLI run's wall time and peak RSS (of the tool's process) is measured; medians are printed with their
// ratios to the floor and to the official suite, and written to bench/results.json.
//
//   npm run bench [-- RUNS=5 [PROPERTY_REPEATS=5]]      BENCH_BASELINE=DIR npm run bench: also the build in DIR, in the same turns
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLI,
  EVERYTHING,
  OFFICIAL,
  REFERENCE,
  ROOT,
  RSS_METHOD,
  median,
  officialNodeFlags,
  officialResults,
  startEverythingHttp,
  timed,
} from './lib.mjs';
import { propertyRates } from './properties.mjs';
import { record, sameWork } from './same-work.mjs';

const RUNS = Number(process.argv[2] ?? 5);
const PROPERTY_REPEATS = Number(process.argv[3] ?? 5);
const PINGS = 100;
const RESULTS = join(ROOT, 'bench/results.json');
const SERVER = join(REFERENCE, 'server.mjs');
/** BENCH_BASELINE=DIR adds the rows of the build in DIR (DIR/dist/cli/main.js), suffixed @base. */
const BASELINE = process.env.BENCH_BASELINE;

/** The floor: spawn, initialize, list every kind (all pages), PINGS pings one after the other, close stdin, exit. */
function floor() {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [SERVER], { stdio: ['pipe', 'pipe', 'ignore'] });
    child.on('error', reject);
    let buffer = '';
    let nextId = 1;
    const waiting = new Map();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const msg = JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        waiting.get(msg.id)?.(msg);
        waiting.delete(msg.id);
      }
    });
    const request = (method, params) =>
      new Promise((res) => {
        const id = nextId++;
        waiting.set(id, res);
        child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params && { params }) }) + '\n');
      });
    const listAll = async (method) => {
      let cursor;
      do {
        const { result } = await request(method, cursor ? { cursor } : undefined);
        cursor = result.nextCursor;
      } while (cursor);
    };
    child.on('exit', () => resolve({ ms: Math.round(performance.now() - t0), code: 0 }));
    (async () => {
      await request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'floor', version: '0' },
      });
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
      await Promise.all(['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list'].map(listAll));
      for (let i = 0; i < PINGS; i++) await request('ping');
      child.stdin.end();
    })().catch(reject);
  });
}

/** Runs `fn` with a CPU hog (a busy loop in another process) beside it: a second core busy. */
async function withHog(fn) {
  const hog = spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' });
  try {
    return await fn();
  } finally {
    hog.kill('SIGKILL');
  }
}

async function ours(args, work, cli = CLI) {
  const out = await mkdtemp(join(work, 'ours-'));
  const r = await timed([cli, '--out', out, '--seed', '7', ...args]);
  let report;
  try {
    report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
  } catch {
    throw new Error(`mcp-conformance ${args.join(' ')} wrote no report (exit ${r.code}):\n${r.stderr.slice(-2000)}`);
  }
  return { ms: r.ms, code: r.code, rssMB: r.rssMB, checks: report.checks.length, statuses: report.summary };
}

async function official(url, work, flags) {
  const out = await mkdtemp(join(work, 'official-'));
  const r = await timed([...flags, OFFICIAL, 'server', '--url', url, '--suite', 'all', '--output-dir', out]);
  return { ms: r.ms, code: r.code, rssMB: r.rssMB, ...(await officialResults(out)) };
}

/**
 * One run of a row, as its runner returns it.
 * @typedef {{ ms: number, code?: number | null, rssMB?: number, checks?: number, scenarios?: number, stalls?: unknown, statuses?: Record<string, number> }} Run
 */
/**
 * A row of the results: its runs summed up, or why it could not run.
 * @typedef {{ command: string, error: string, wallMs?: undefined, peakRssMB?: undefined }} FailedRow
 * @typedef {{ command: string, wallMs: { median: number, runs: number[] }, peakRssMB?: { median: number, max: number }, checks?: number, scenarios?: number, stalls?: unknown[], statuses?: Record<string, number>, exitCodes: (number | null | undefined)[], ratioToFloor?: number, ratioToOfficial?: number }} RanRow
 * @typedef {FailedRow | RanRow} Row
 */

function summary(runs) {
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r.statuses ?? {})))];
  return {
    wallMs: { median: median(runs.map((r) => r.ms)), runs: runs.map((r) => r.ms) },
    ...(runs[0].rssMB !== undefined && {
      peakRssMB: { median: median(runs.map((r) => r.rssMB)), max: Math.max(...runs.map((r) => r.rssMB)) },
    }),
    ...(runs[0].checks !== undefined && { checks: median(runs.map((r) => r.checks)) }),
    ...(runs[0].scenarios !== undefined && { scenarios: median(runs.map((r) => r.scenarios)) }),
    ...(runs[0].stalls !== undefined && { stalls: runs.map((r) => r.stalls) }),
    ...(keys.length > 0 && {
      statuses: Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r.statuses[k] ?? 0))])),
    }),
    exitCodes: [...new Set(runs.map((r) => r.code))],
  };
}

const work = await mkdtemp(join(tmpdir(), 'mcpc-bench-'));
// Other work on the machine skews every row: the load averages are written with the results.
const loadBefore = os.loadavg();
const everything = await startEverythingHttp();
try {
  const flags = await officialNodeFlags(work);
  // The tool's rows, for a build of it (its dist/cli/main.js).
  const toolRows = (cli, suffix, note) => ({
    [`ref-stdio${suffix}`]: {
      command: `mcp-conformance examples/reference-server${note}`,
      run: () => ours([REFERENCE], work, cli),
    },
    [`ref-http${suffix}`]: {
      command: `mcp-conformance --http-url 'http://127.0.0.1:{port}/mcp' --port auto -- node examples/reference-server/http.mjs --port {port}${note}`,
      run: () =>
        ours(
          [
            '--http-url',
            'http://127.0.0.1:{port}/mcp',
            '--port',
            'auto',
            '--',
            process.execPath,
            join(REFERENCE, 'http.mjs'),
            '--port',
            '{port}',
          ],
          work,
          cli,
        ),
    },
    [`every-stdio${suffix}`]: {
      command: `mcp-conformance -- node server-everything/dist/index.js stdio${note}`,
      run: () => ours(['--', process.execPath, EVERYTHING, 'stdio'], work, cli),
    },
    [`every-http${suffix}`]: {
      command: `mcp-conformance <server-everything streamableHttp URL>${note}`,
      run: () => ours([everything.url], work, cli),
    },
    // What the tool itself costs beside the official suite: no tool called, so no wait on the server's 10 s operation.
    [`every-http-no-tools${suffix}`]: {
      command: `mcp-conformance --tool-calls none <server-everything streamableHttp URL>${note}`,
      run: () => ours(['--tool-calls', 'none', everything.url], work, cli),
    },
    [`huge-frame${suffix}`]: {
      command: `mcp-conformance --timeout 3 bench/servers/huge-frame.mjs (a 50 MiB resource)${note}`,
      run: () => ours(['--timeout', '3', join(ROOT, 'bench/servers/huge-frame.mjs')], work, cli),
    },
    [`wide-frames${suffix}`]: {
      command: `mcp-conformance bench/servers/wide-frames.mjs (a 15 MiB frame to every session as it starts)${note}`,
      run: () => ours([join(ROOT, 'bench/servers/wide-frames.mjs')], work, cli),
    },
    [`huge-frame+hog${suffix}`]: {
      command: `mcp-conformance --timeout 3 bench/servers/huge-frame.mjs, beside a busy loop in another process (a second core busy)${note}`,
      run: () => withHog(() => ours(['--timeout', '3', join(ROOT, 'bench/servers/huge-frame.mjs')], work, cli)),
    },
  });
  // The protocol work of a ref-stdio run (same seed), recorded once, before the turns.
  const referenceCommand = [process.execPath, SERVER];
  const recording = await record(work, 7, referenceCommand);
  const rows = {
    floor: {
      command: `node examples/reference-server/server.mjs: initialize, list all, ${PINGS} pings (hand-written client)`,
      run: () => floor(),
    },
    ...toolRows(CLI, '', ''),
    'same-work': {
      command: `hand-written client: the lines a ref-stdio run sent (${recording.lines}) to as many reference server processes (${recording.processes.length}), in order, no checking`,
      run: () => sameWork(referenceCommand, recording),
    },
    official: {
      command: 'conformance server --url <server-everything streamableHttp URL> --suite all',
      run: () => official(everything.url, work, flags),
    },
    // Another build of the tool (a copy of a checkout's dist/, schema/ and cases/ inside this repository, so that it
    // resolves node_modules; e.g. from before a change), measured in the same turns.
    ...(BASELINE && toolRows(join(BASELINE, 'dist/cli/main.js'), '@base', ` (baseline build ${BASELINE})`)),
  };
  /** @type {Record<string, Run[]>} */
  const runs = Object.fromEntries(Object.keys(rows).map((k) => [k, []]));
  /** @type {Record<string, string>} */
  const failed = {};
  await floor(); // warm the file cache
  // The HTTP server the every-http and official rows share: one run of each first, so that no row pays its warm-up
  // (its JIT compiling the request path: the first run takes about twice as long).
  await ours([everything.url], work);
  await official(everything.url, work, flags);
  for (let i = 0; i < RUNS; i++) {
    // Rotate the order, so that no row always runs first (or after the same neighbour).
    const names = Object.keys(rows);
    const order = [...names.slice(i % names.length), ...names.slice(0, i % names.length)];
    for (const name of order) {
      if (failed[name]) continue;
      try {
        runs[name].push(await rows[name].run());
      } catch (err) {
        failed[name] = /** @type {Error} */ (err).message;
      }
    }
    process.stderr.write(
      `run ${i + 1}/${RUNS}: ${names.map((n) => `${n} ${runs[n].at(-1)?.ms ?? '-'} ms`).join(', ')}\n`,
    );
  }
  process.stderr.write(`property engine: ${PROPERTY_REPEATS} runs of each tools/call property…\n`);
  const properties = await propertyRates(PROPERTY_REPEATS, 5000);

  const result = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    runs: RUNS,
    rss: RSS_METHOD,
    rows: /** @type {Record<string, Row>} */ (
      Object.fromEntries(
        Object.entries(rows).map(([name, row]) => [
          name,
          { command: row.command, ...(failed[name] ? { error: failed[name] } : summary(runs[name])) },
        ]),
      )
    ),
    properties,
  };
  const floorMs = result.rows.floor.wallMs?.median;
  const officialMs = result.rows.official.wallMs?.median;
  for (const row of Object.values(result.rows)) {
    if (!row.wallMs) continue;
    row.ratioToFloor = Math.round((row.wallMs.median / /** @type {number} */ (floorMs)) * 100) / 100;
    if (officialMs) row.ratioToOfficial = Math.round((row.wallMs.median / officialMs) * 100) / 100;
  }
  // The performance targets (README, Performance), as ratios of medians in this one run.
  const ratio = (a, b) =>
    result.rows[a]?.wallMs && result.rows[b]?.wallMs
      ? Math.round((result.rows[a].wallMs.median / result.rows[b].wallMs.median) * 100) / 100
      : undefined;
  const rates = Object.values(properties).map((r) => r.median);
  const rss = Object.values(result.rows)
    .map((r) => r.peakRssMB?.max)
    .filter((x) => x !== undefined);
  result.targets = {
    'every-http / official (≤ 0.75)': ratio('every-http', 'official'),
    'every-stdio / official (≤ 1.2)': ratio('every-stdio', 'official'),
    'every-http --tool-calls none / official (not a target: the tool without the 10 s operation)': ratio(
      'every-http-no-tools',
      'official',
    ),
    'ref-stdio / same-work (≤ 6)': ratio('ref-stdio', 'same-work'),
    'property rate, generated tools/call per s (≥ 2000)': Math.min(...rates),
    'peak RSS, MB, any row (< 200)': Math.max(...rss),
  };
  result.load = { before: loadBefore, after: os.loadavg() };
  await writeFile(RESULTS, `${JSON.stringify(result, null, 2)}\n`);

  const pad = (s, n) => String(s).padStart(n);
  const lines = [
    `medians of ${RUNS} runs, ${result.cpus} CPUs, Node ${result.node}; peak RSS: ${RSS_METHOD}`,
    `${'row'.padEnd(16)} ${pad('wall ms', 8)} ${pad('×floor', 7)} ${pad('×official', 9)} ${pad('RSS MB', 7)} ${pad('checks', 7)}  statuses`,
  ];
  for (const [name, row] of Object.entries(result.rows)) {
    if ('error' in row) {
      lines.push(`${name.padEnd(16)} could not run: ${row.error.split('\n')[0]}`);
      continue;
    }
    lines.push(
      `${name.padEnd(16)} ${pad(row.wallMs.median, 8)} ${pad(row.ratioToFloor, 7)} ${pad(row.ratioToOfficial ?? '-', 9)} ${pad(row.peakRssMB?.median ?? '-', 7)} ${pad(row.checks ?? '-', 7)}  ${row.statuses ? JSON.stringify(row.statuses) : ''}`,
    );
  }
  for (const [id, r] of Object.entries(properties))
    lines.push(`${id}: ${r.median} generated tools/call/s (median of ${r.runs.length} × ${r.calls} calls)`);
  for (const [target, value] of Object.entries(result.targets)) lines.push(`${target}: ${value ?? '-'}`);
  lines.push(
    `load average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${result.load.after.map((x) => x.toFixed(2)).join(' ')}`,
  );
  lines.push(`written to ${RESULTS}`);
  process.stdout.write(lines.join('\n') + '\n');
} finally {
  everything.stop();
  await rm(work, { recursive: true, force: true });
}
