import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlannedServer } from '../config/servers-file.js';
import { OUTCOME_FILE, type ServerOutcome } from '../report/matrix/build.js';
import { writeFileSet } from '../report/output.js';
import { descendants, killTree } from '../transport/process-tree.js';
import type { Progress } from './progress.js';

/** What the CLI printed, kept in the server's folder (the last part of it when it printed a lot). */
const CONSOLE_FILE = 'console.txt';
const MAX_CONSOLE_BYTES = 256 * 1024;
/** After the budget: SIGTERM, which makes a run end its checks and write its partial reports; SIGKILL this much later. */
const STOP_GRACE_MS = 10_000;
/** After a run exits, how long its output may take to arrive. */
const DRAIN_MS = 2000;

export interface MatrixRunOptions {
  out: string;
  jobs: number;
  /** Each server's budget unless it names its own. */
  budgetMs: number;
  /** Options passed on to every run. */
  seed?: number;
  runs?: number;
  timeout?: number;
  strict?: boolean;
  maxStarts?: number;
  signal?: AbortSignal;
  /** A server started, made progress, or ended. */
  onEvent?: (event: ServerEvent) => void;
}

export type ServerEvent =
  | { kind: 'start'; server: PlannedServer }
  | { kind: 'progress'; server: PlannedServer; progress: Progress }
  | { kind: 'end'; server: PlannedServer; outcome: ServerOutcome };

/** The CLI that runs one server: the built one next to this module, or dist/ when this module runs from src/. */
function cliPath(): string {
  const beside = fileURLToPath(new URL('../cli/main.js', import.meta.url));
  return existsSync(beside) ? beside : fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
}

/** The CLI arguments of one server's run, its reports going to `out`. */
export function cliArgs(server: PlannedServer, options: Omit<MatrixRunOptions, 'out' | 'jobs'>, out: string): string[] {
  if (server.client) return clientArgs(server, options, out);
  if (server.authorization) return authorizationArgs(server, options, out);
  const args = ['--out', out, '--no-color', '--budget', String(server.budget ?? options.budgetMs / 1000)];
  const add = (flag: string, value: string | number | undefined) =>
    value !== undefined && args.push(flag, String(value));
  add('--seed', options.seed);
  add('--runs', options.runs);
  add('--timeout', server.timeout ?? options.timeout);
  if (options.strict) args.push('--strict');
  add('--max-starts', options.maxStarts);
  add('--revision', server.revision);
  add('--tool-calls', server.toolCalls);
  for (const tool of server.allowTools ?? []) args.push('--allow-tool', tool);
  add('--expected-failures', server.expectedFailures);
  add('--cwd', server.cwd);
  add('--transport', server.transport);
  // A value needing the port is set by `env` in front of the command, where {port} is filled.
  const portEnv: string[] = [];
  for (const [key, value] of Object.entries(server.env ?? {})) {
    if (String(value).includes('{port}')) portEnv.push(`${key}=${value}`);
    else args.push('--env', `${key}=${value}`);
  }
  if (server.url !== undefined)
    args.push(
      '--http-url',
      server.url,
      ...(server.url.includes('{port}') || server.command?.some((a) => a.includes('{port}')) || portEnv.length > 0
        ? ['--port', 'auto']
        : []),
    );
  if (server.target !== undefined) args.push(server.target);
  else args.push('--', ...(portEnv.length > 0 ? ['env', ...portEnv] : []), ...server.command!);
  return args;
}

/**
 * A client entry's run: `mcp-conformance client -- <client…>` with the options that apply to a client. Its budget is the
 * matrix's alone (SIGTERM ends it as Ctrl-C does: the scenario running stops and the reports are written).
 */
function clientArgs(entry: PlannedServer, options: Omit<MatrixRunOptions, 'out' | 'jobs'>, out: string): string[] {
  const args = ['client', '--out', out];
  const add = (flag: string, value: string | number | undefined) =>
    value !== undefined && args.push(flag, String(value));
  add('--seed', options.seed);
  add('--timeout', entry.timeout ?? options.timeout);
  if (options.strict) args.push('--strict');
  add('--revision', entry.revision);
  for (const scenario of entry.scenarios ?? []) args.push('--scenario', scenario);
  add('--expected-failures', entry.expectedFailures);
  return [...args, '--', ...entry.client!];
}

/**
 * An authorization entry's run: `mcp-conformance authorization --url <issuer>` with its own options and the matrix's
 * that apply (--timeout, --strict). Its budget is the matrix's alone: past it the run is ended (it writes no partial
 * report, so the entry shows why there is none).
 */
function authorizationArgs(
  entry: PlannedServer,
  options: Omit<MatrixRunOptions, 'out' | 'jobs'>,
  out: string,
): string[] {
  const args = ['authorization', '--url', entry.authorization!, '--out', out];
  const add = (flag: string, value: string | number | undefined) =>
    value !== undefined && args.push(flag, String(value));
  add('--client-id', entry.clientId);
  add('--client-secret', entry.clientSecret);
  add('--port', entry.port);
  add('--resource', entry.resource);
  add('--scope', entry.scope);
  // auto: every check, whichever revision its rule came in.
  add('--spec-version', entry.revision === 'auto' ? undefined : entry.revision);
  add('--timeout', entry.timeout ?? options.timeout);
  if (options.strict) args.push('--strict');
  add('--expected-failures', entry.expectedFailures);
  return args;
}

/**
 * Runs every server's suite as a child process of its own (the CLI), `jobs` at a time, each writing its usual reports
 * into `out/<folder>/` and how it ended into matrix-run.json there. A server that cannot start or hangs costs at most
 * its budget (then its run is stopped, and its partial reports kept); the others go on. Aborting `signal` stops every
 * run the same way. Every process started is gone when this returns.
 */
export async function runServers(
  servers: readonly PlannedServer[],
  options: MatrixRunOptions,
): Promise<ServerOutcome[]> {
  const outcomes: ServerOutcome[] = new Array(servers.length);
  const running = new Set<ChildProcess>();
  const stopAll = () => {
    for (const child of running) stop(child, 'SIGTERM');
  };
  options.signal?.addEventListener('abort', stopAll, { once: true });
  const hardKill = () => {
    for (const child of running) stop(child, 'SIGKILL');
  };
  process.on('exit', hardKill);
  let next = 0;
  const worker = async () => {
    while (next < servers.length && !options.signal?.aborted) {
      const i = next++;
      outcomes[i] = await runServer(servers[i], options, running);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, servers.length)) }, worker));
  } finally {
    options.signal?.removeEventListener('abort', stopAll);
    process.off('exit', hardKill);
  }
  // Servers an interruption kept from starting appear as such.
  for (let i = 0; i < servers.length; i++) {
    outcomes[i] ??= await record(
      servers[i],
      options.out,
      {
        name: servers[i].name,
        ...sideOf(servers[i]),
        ...(servers[i].labels && { labels: servers[i].labels }),
        timedOut: false,
        durationMs: 0,
        reason: 'not run: the matrix was interrupted',
      },
      '',
    );
  }
  return outcomes;
}

/** The side an entry's outcome records: absent for a server. */
const sideOf = (entry: PlannedServer): Pick<ServerOutcome, 'side'> =>
  entry.client ? { side: 'client' } : entry.authorization ? { side: 'authorization' } : {};

/** SIGTERM to the run's process group; SIGKILL to it and every process under it (servers run in groups of their own). */
function stop(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  if (signal === 'SIGKILL') killTree(child.pid, descendants(child.pid));
  else {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  }
}

async function runServer(
  server: PlannedServer,
  options: MatrixRunOptions,
  running: Set<ChildProcess>,
): Promise<ServerOutcome> {
  const out = join(options.out, server.folder);
  const budgetMs = server.budget !== undefined ? server.budget * 1000 : options.budgetMs;
  options.onEvent?.({ kind: 'start', server });
  const t0 = performance.now();
  const child = spawn(process.execPath, [cliPath(), ...cliArgs(server, options, out)], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    detached: true,
    env: { ...process.env, MCP_CONFORMANCE_PROGRESS: 'ipc' },
  });
  running.add(child);
  let printed = Buffer.alloc(0);
  const keep = (chunk: Buffer) => {
    printed = Buffer.concat([printed, chunk]);
    if (printed.length > MAX_CONSOLE_BYTES) printed = printed.subarray(printed.length - MAX_CONSOLE_BYTES);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.on('message', (message: { progress?: Progress }) => {
    if (message?.progress) options.onEvent?.({ kind: 'progress', server, progress: message.progress });
  });
  let timedOut = false;
  let killer: NodeJS.Timeout | undefined;
  const overrun = setTimeout(() => {
    timedOut = true;
    stop(child, 'SIGTERM');
    killer = setTimeout(() => stop(child, 'SIGKILL'), STOP_GRACE_MS);
  }, budgetMs);
  const closed = new Promise((resolve) => child.once('close', resolve));
  const ended = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('exit', (code, signal) =>
      resolve({ code: code ?? (signal ? 128 + (signal === 'SIGKILL' ? 9 : 15) : null) }),
    );
  });
  // The rest of what it printed; a process it left holding its output does not keep the matrix waiting.
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, DRAIN_MS).unref())]);
  clearTimeout(overrun);
  clearTimeout(killer);
  running.delete(child);
  // Anything the run left behind (it kills its servers itself; this is for a run that was killed).
  if (child.pid !== undefined) killTree(child.pid, descendants(child.pid));
  const text = printed.toString('utf8');
  const reason = ended.error
    ? `could not start the run: ${ended.error.message}`
    : timedOut
      ? `stopped after its budget of ${budgetMs / 1000} s`
      : existsSync(join(out, 'report.json'))
        ? undefined
        : lastLines(text) || `exited with code ${ended.code} without a report`;
  const outcome: ServerOutcome = {
    name: server.name,
    ...sideOf(server),
    ...(server.labels && { labels: server.labels }),
    ...(ended.code !== null && { exitCode: ended.code }),
    timedOut,
    durationMs: Math.round(performance.now() - t0),
    ...(reason && { reason }),
  };
  await record(server, options.out, outcome, text);
  options.onEvent?.({ kind: 'end', server, outcome });
  return outcome;
}

/** The last few non-empty lines of what a run printed: why it ended without a report. */
function lastLines(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-3)
    .join(' / ')
    .slice(0, 500);
}

async function record(
  server: PlannedServer,
  out: string,
  outcome: ServerOutcome,
  printed: string,
): Promise<ServerOutcome> {
  await writeFileSet(join(out, server.folder), {
    [OUTCOME_FILE]: `${JSON.stringify(outcome, null, 2)}\n`,
    [CONSOLE_FILE]: printed,
  });
  return outcome;
}
