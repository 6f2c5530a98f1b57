// Runs the client under test for one scenario: started as a process group leader, its output kept as transcript
// lines, stopped with its whole process tree when the scenario's budget is spent, and never left behind.
import { spawn } from 'node:child_process';
import type { Transcript } from '../transcript.js';
import { descendants, isAlive, killTree } from './process-tree.js';

export interface ClientExit {
  code: number | null;
  signal: string | null;
  /** The budget was spent and the suite stopped it. */
  stopped: boolean;
  /** It could not be started (e.g. no such command). */
  spawnError?: string;
  durationMs: number;
  /** What it wrote, as written (the official results' stdout.txt and stderr.txt); a process's only. */
  output?: ClientOutput;
}

export interface ClientOutput {
  stdout: string;
  stderr: string;
}

export interface ClientLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  budgetMs: number;
  transcript: Transcript;
  cwd?: string;
  signal?: AbortSignal;
  /** Awaited after the client exited, before what it left running is stopped (its stdio servers end first). */
  settle?: () => Promise<void>;
}

/** Lines of output kept per stream are bounded by the transcript; a line longer than this is cut. */
const LINE_CAP = 4096;
/** Characters of output kept whole per stream: past them a flooding client's output is counted, not kept. */
export const OUTPUT_CAP = 1 << 20;
/** How long, once the client exited, its output may take to drain (a process it left may hold the pipes open). */
const DRAIN_MS = 500;

/** Starts the client and resolves when it exited, or was stopped at the end of its budget. */
export function runClientProcess(launch: ClientLaunch): Promise<ClientExit> {
  const t0 = performance.now();
  const { transcript } = launch;
  transcript.add('event', `spawn ${[launch.command, ...launch.args].join(' ')}`);
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(launch.command, launch.args, {
        cwd: launch.cwd,
        env: { ...process.env, ...launch.env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (err) {
      return resolve({ code: null, signal: null, stopped: false, spawnError: (err as Error).message, durationMs: 0 });
    }
    let stopped = false;
    let tree: number[] = [];
    const output: ClientOutput = { stdout: '', stderr: '' };
    const cut = { stdout: 0, stderr: 0 };
    const kept = (): ClientOutput => {
      const tail = (name: keyof ClientOutput) => (cut[name] ? `\n[${cut[name]} more characters not kept]\n` : '');
      return { stdout: output.stdout + tail('stdout'), stderr: output.stderr + tail('stderr') };
    };
    const pid = child.pid;
    const stop = (why: string) => {
      if (pid === undefined || stopped) return;
      stopped = true;
      transcript.add('event', why);
      tree = descendants(pid);
      killTree(pid, tree);
    };
    const timer = setTimeout(
      () => stop(`budget of ${launch.budgetMs} ms spent: the client and its processes were stopped`),
      launch.budgetMs,
    );
    const onAbort = () => stop('the run was interrupted: the client was stopped');
    launch.signal?.addEventListener('abort', onAbort, { once: true });
    for (const [stream, name] of [
      [child.stdout, 'stdout'],
      [child.stderr, 'stderr'],
    ] as const) {
      let rest = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const room = Math.max(0, OUTPUT_CAP - output[name].length);
        output[name] += chunk.slice(0, room);
        cut[name] += Math.max(0, chunk.length - room);
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        if (rest.length > LINE_CAP) rest = rest.slice(0, LINE_CAP);
        for (const line of lines) transcript.add('stderr', `${name}: ${line.slice(0, LINE_CAP)}`);
      });
      stream?.on('end', () => rest && transcript.add('stderr', `${name}: ${rest}`));
    }
    // 'exit' can come before the last of the output: 'close' comes after it.
    const closed = new Promise<void>((done) => child.on('close', () => done()));
    child.on('error', (err) => {
      clearTimeout(timer);
      launch.signal?.removeEventListener('abort', onAbort);
      transcript.add('event', `could not start: ${err.message}`);
      resolve({
        code: null,
        signal: null,
        stopped,
        spawnError: err.message,
        durationMs: performance.now() - t0,
        output: kept(),
      });
    });
    child.on('exit', async (code, signal) => {
      clearTimeout(timer);
      launch.signal?.removeEventListener('abort', onAbort);
      if (!stopped) await launch.settle?.();
      // What it left running (its process group, descendants found while it lived) goes too.
      if (pid !== undefined) killTree(pid, tree.filter(isAlive));
      await Promise.race([closed, new Promise((done) => setTimeout(done, DRAIN_MS).unref())]);
      transcript.add('event', `exit code ${code} signal ${signal}`);
      resolve({ code, signal, stopped, durationMs: performance.now() - t0, output: kept() });
    });
  });
}
