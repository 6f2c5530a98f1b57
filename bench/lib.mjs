// Helpers shared by the benchmarks in bench/ (not part of `npm test`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI = join(ROOT, 'dist/cli/main.js');
export const OFFICIAL = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
export const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const REFERENCE = join(ROOT, 'examples/reference-server');

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once the URL gives any HTTP answer. */
export async function answers(url, ms = 30_000) {
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

// Peak RSS of the tool's own process: VmHWM from /proc, sampled until it exits (a high-water mark, so sampling
// loses only a peak in its last 20 ms). Not GNU time's "Maximum resident set size": wait4 reports the largest of the
// process and the children it reaped, and the tool reaps the servers it starts, so a server's memory would count.
// Without /proc, GNU time is the fallback.
const PROC = fs.existsSync('/proc/self/status');
const TIME = PROC ? undefined : ['/usr/bin/time', '/bin/time'].find((p) => fs.existsSync(p));
export const RSS_METHOD = PROC
  ? '/proc/<pid>/status VmHWM of the tool process, sampled every 20 ms'
  : TIME
    ? `${TIME} -v (Maximum resident set size; includes reaped children)`
    : 'not measured';

/**
 * Runs `node ...args` to its end; resolves with its wall time in ms, its exit code and its peak RSS in MB
 * (of the node process itself, not of the servers it starts).
 */
export function timed(args, { cwd = ROOT, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = TIME
      ? spawn(TIME, ['-v', process.execPath, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] })
      : spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d) => {
      stderr = (stderr + d).slice(-20_000);
    });
    let hwm = 0;
    const sampler = !PROC
      ? undefined
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) hwm = Math.max(hwm, Number(m[1]));
          } catch {
            // gone
          }
        }, 20);
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Math.round(performance.now() - t0);
      clearInterval(sampler);
      if (TIME) {
        const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
        if (m) hwm = Number(m[1]);
        const status = /Exit status: (\d+)/.exec(stderr);
        if (status) code = Number(status[1]);
      }
      resolve({ ms, code, rssMB: Math.round(hwm / 1024), stderr });
    });
  });
}

/**
 * The official CLI imports fs.globSync, which Node gained in 22 (it is only used by its tier-check command).
 * On an older Node it is given a stub through a module hook; the `server` command never calls it.
 * Returns the node flags that install the hook (none on Node ≥ 22); `dir` is a scratch folder for it.
 */
export async function officialNodeFlags(dir) {
  // Node 20's typings have no fs.globSync.
  if (typeof (/** @type {{ globSync?: unknown }} */ (fs).globSync) === 'function') return [];
  await writeFile(
    join(dir, 'fs.mjs'),
    "import fs from 'node:fs';\nexport * from 'node:fs';\nexport default fs;\nexport function globSync() { throw new Error('fs.globSync needs Node 22'); }\n",
  );
  await writeFile(
    join(dir, 'hooks.mjs'),
    `export async function resolve(specifier, context, next) {\n  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('@modelcontextprotocol/conformance')) return { url: ${JSON.stringify(pathToFileURL(join(dir, 'fs.mjs')).href)}, shortCircuit: true };\n  return next(specifier, context);\n}\n`,
  );
  await writeFile(
    join(dir, 'register.mjs'),
    "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n",
  );
  return ['--import', join(dir, 'register.mjs')];
}

/** Starts server-everything in Streamable HTTP mode in its own process group; `stop()` kills the whole group. */
export async function startEverythingHttp() {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  // server-everything binds every interface; the benches talk to it on 127.0.0.1 only.
  const server = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: 'ignore',
    detached: true,
  });
  const stop = () => {
    try {
      process.kill(-(/** @type {number} */ (server.pid)), 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.on('exit', stop);
  await answers(url);
  return { url, stop };
}

/**
 * Reads the checks and statuses the official suite wrote into `out`: one folder per scenario run, holding its
 * checks.json (0.2 nests the auth scenarios one folder deeper and leaves a skipped scenario's folder empty).
 */
export async function officialResults(out) {
  const statuses = {};
  let checks = 0;
  const files = (await fs.promises.readdir(out, { recursive: true })).filter((f) => f.endsWith('checks.json'));
  for (const file of files) {
    for (const check of JSON.parse(await readFile(join(out, file), 'utf8'))) {
      statuses[check.status] = (statuses[check.status] ?? 0) + 1;
      checks++;
    }
  }
  return { checks, scenarios: files.length, statuses };
}

/**
 * Medians of wall time and of each count over a tool's runs (`{ ms, code, checks, statuses, scenarios?, processes? }`),
 * plus every run's wall time. A count only one tool has is undefined (so not written) for the other.
 */
export function medianSummary(runs) {
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r.statuses)))];
  const of = (key) => (runs[0][key] === undefined ? undefined : median(runs.map((r) => r[key])));
  return {
    wallMs: { median: median(runs.map((r) => r.ms)), runs: runs.map((r) => r.ms) },
    checks: median(runs.map((r) => r.checks)),
    scenarios: of('scenarios'),
    processes: of('processes'),
    statuses: Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r.statuses[k] ?? 0))])),
    exitCodes: [...new Set(runs.map((r) => r.code))],
  };
}
