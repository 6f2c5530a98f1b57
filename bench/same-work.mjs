// The same-work row of the bench: a hand-written client that does the protocol work of a real run of the suite on
// the reference server over stdio, and nothing else. A run of the CLI is recorded once (bench/record-server.mjs
// between the CLI and each server process it starts); the client then starts as many server processes, in the
// same order, and sends each the lines the CLI sent it, in the same order, each once the server has given as many
// responses as it had when the CLI sent that line (so the same requests are in flight); then it closes stdin and waits
// for the exits. No checking, no reports, no deliberate waits: the difference to the CLI's time is the tool's own.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI, ROOT, timed } from './lib.mjs';

/** Most a replayed line waits for the responses it followed before it goes anyway (a response that did not come). */
const STALL_MS = 30_000;
/** Lines that went after STALL_MS without the responses they followed (reported with the row). */
let stalls = 0;

/** Records one CLI run (`args` after `--out DIR --seed SEED`, ending in `-- <server command>`): each server process's lines. */
export async function record(work, seed, serverCommand, args = []) {
  const dir = await mkdtemp(join(work, 'record-'));
  const out = await mkdtemp(join(work, 'record-out-'));
  const r = await timed([
    CLI,
    '--out',
    out,
    '--seed',
    String(seed),
    ...args,
    '--',
    process.execPath,
    join(ROOT, 'bench/record-server.mjs'),
    dir,
    '--',
    ...serverCommand,
  ]);
  const files = (await readdir(dir)).sort();
  const processes = await Promise.all(files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8'))));
  await rm(dir, { recursive: true, force: true });
  await rm(out, { recursive: true, force: true });
  if (processes.length === 0)
    throw new Error(`the recorded run started no server (exit ${r.code}):\n${r.stderr.slice(-2000)}`);
  processes.sort((a, b) => a.startedAt - b.startedAt);
  return { processes, lines: processes.reduce((n, p) => n + p.lines.length, 0), cliMs: r.ms };
}

/**
 * One server process of the replay: its lines sent as recorded, stdin closed, its exit awaited.
 * @returns {Promise<void>}
 */
function replayOne(serverCommand, recorded) {
  return new Promise((resolve, reject) => {
    const child = spawn(serverCommand[0], serverCommand.slice(1), { stdio: ['pipe', 'pipe', 'ignore'] });
    child.on('error', reject);
    child.stdin.on('error', () => {}); // a server that exits mid-replay (the recording's did too)
    let responses = 0;
    let pending = '';
    let current = '';
    let wake;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      const parts = (pending + chunk).split('\n');
      pending = /** @type {string} */ (parts.pop());
      for (const line of parts) {
        try {
          const msg = JSON.parse(line);
          if (msg && typeof msg === 'object' && 'id' in msg && !('method' in msg)) responses++;
        } catch {
          // not JSON: not a response
        }
      }
      wake?.();
    });
    let exited = false;
    child.on('exit', () => {
      exited = true;
      wake?.();
      resolve();
    });
    /** @type {(n: number) => Promise<void>} */
    const until = (n) =>
      new Promise((res) => {
        if (responses >= n || exited) return res();
        const timer = setTimeout(() => {
          wake = undefined;
          stalls++;
          if (process.env.SAME_WORK_DEBUG)
            process.stderr.write(`stall: ${responses} of ${n} responses before ${current.slice(0, 160)}\n`);
          res();
        }, STALL_MS);
        wake = () => {
          if (responses < n && !exited) return;
          clearTimeout(timer);
          wake = undefined;
          res();
        };
      });
    (async () => {
      for (const { after, line } of recorded.lines) {
        current = line;
        if (responses < after) await until(after);
        if (exited) return;
        child.stdin.write(`${line}\n`);
      }
      if (recorded.unterminated) child.stdin.write(recorded.unterminated);
      child.stdin.end();
    })().catch(reject);
  });
}

/** The replay: every recorded process started at once, in the recorded order (a lower bound: the CLI starts some later). */
export async function sameWork(serverCommand, recording) {
  const t0 = performance.now();
  stalls = 0;
  await Promise.all(recording.processes.map((p) => replayOne(serverCommand, p)));
  return { ms: Math.round(performance.now() - t0), code: 0, stalls };
}
