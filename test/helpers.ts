import { execa } from 'execa';
import _Ajv2020 from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommandLine } from '../src/cli/command-line.js';
import type { CheckResult, Report, Status } from '../src/schema/generated/report.js';
import { loadSuite } from '../src/suite/suite.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI = join(ROOT, 'dist/cli/main.js');
export const REFERENCE = join(ROOT, 'examples/reference-server');
export const FAULTY = join(ROOT, 'test/fixtures/servers/faulty-server.mjs');

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  out: string;
  report?: Report;
}

/** The CLI's arguments with reports in `out`: a subcommand stays first; the report folder goes after it. */
function withOut(args: string[], out: string): string[] {
  const [first, ...rest] = args;
  return ['list', 'report', 'badge', 'client', 'authorization'].includes(first)
    ? [first, '--out', out, ...rest]
    : ['--out', out, ...args];
}

/** The report.json a run wrote to `out`, if any. */
async function reportIn(out: string): Promise<Report | undefined> {
  try {
    return JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
  } catch {
    return undefined;
  }
}

/** Runs the built CLI as a user would, with reports in a fresh temp folder (outside GitHub Actions unless `env` says so). */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const out = await mkdtemp(join(tmpdir(), 'mcpc-'));
  const r = await execa(process.execPath, [CLI, ...withOut(args, out)], {
    reject: false,
    env: { GITHUB_ACTIONS: '', ...env, NO_COLOR: '1' },
    timeout: 120_000,
  });
  return {
    exitCode: r.exitCode ?? -1,
    stdout: String(r.stdout),
    stderr: String(r.stderr),
    out,
    report: await reportIn(out),
  };
}

/** runCli's run in this process (cliHere), for a command line that starts no server: a list, or one refused early. */
export async function runCliHere(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const out = await mkdtemp(join(tmpdir(), 'mcpc-'));
  const r = await cliHere(withOut(args, out), { GITHUB_ACTIONS: '', ...env });
  return { ...r, out, report: await reportIn(out) };
}

let cliTurn: Promise<unknown> = Promise.resolve();
/**
 * A command line of the CLI (`diff …`, `report …`) in this process, with what it writes to stdout and stderr and its
 * exit code: what the built CLI does but for main.ts's signals and exit. One at a time, as each holds the process's
 * stdout and stderr (and `env`) while it runs; for commands that start no server.
 */
export function cliHere(argv: string[], env: Record<string, string> = {}): Promise<Omit<CliRun, 'out' | 'report'>> {
  const run = async () => {
    const written = { stdout: '', stderr: '' };
    const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
    const saved = Object.fromEntries(Object.keys({ NO_COLOR: '', ...env }).map((k) => [k, process.env[k]]));
    Object.assign(process.env, { ...env, NO_COLOR: '1' });
    for (const name of ['stdout', 'stderr'] as const)
      process[name].write = ((chunk: string | Uint8Array) => {
        written[name] += String(chunk);
        return true;
      }) as typeof process.stdout.write;
    try {
      const exitCode = await runCommandLine(argv, new AbortController().signal);
      // As runCli's execa gives them: without the last newline.
      const last = (text: string) => text.replace(/\r?\n$/, '');
      return { exitCode, stdout: last(written.stdout), stderr: last(written.stderr) };
    } finally {
      Object.assign(process.stdout, { write: writes.stdout });
      Object.assign(process.stderr, { write: writes.stderr });
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  };
  const turn = cliTurn.then(run, run);
  cliTurn = turn.catch(() => undefined);
  return turn;
}

export const statusOf = (report: Report | undefined, id: string) => report?.checks.find((c) => c.id === id)?.status;

/** A fresh temp folder holding `files` (relative path → text). */
export async function folderWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mcpc-config-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

/** A file holding `text`, named `name`, in a fresh temp folder. */
export async function tempFile(text: string, name: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'mcpc-file-')), name);
  await writeFile(path, text);
  return path;
}

/** The checks of a report that neither passed nor skipped, as `id: status message`. */
export const notPassing = (r: Report | undefined) =>
  (r?.checks ?? [])
    .filter((c) => c.status !== 'pass' && c.status !== 'skip')
    .map((c) => `${c.id}: ${c.status} ${c.message}`);

/** Checks that apply to both runs (no transport of their own) whose verdicts differ, as `id: stdio → http`. */
export async function differences(stdio: Report, http: Report): Promise<string[]> {
  const { checks, frameRules } = await loadSuite();
  const shared = new Set([...checks, ...frameRules].filter((c) => c.transport === undefined).map((c) => c.id));
  const overHttp = new Map(http.checks.map((c) => [c.id, c.status]));
  return stdio.checks
    .filter((c) => shared.has(c.id) && overHttp.get(c.id) !== c.status)
    .map((c) => `${c.id}: ${c.status} → ${overHttp.get(c.id)}`);
}

/** A check result as a report holds it, for the renderers' tests: a MUST (a SHOULD when it warns) of `page`. */
export function fakeCheck(
  id: string,
  status: Status,
  over: Partial<CheckResult> = {},
  page = 'basic#requests',
): CheckResult {
  return {
    id,
    title: `The ${id.split('/').pop()} check`,
    area: id.split('/')[0],
    status,
    level: status === 'warn' ? 'SHOULD' : 'MUST',
    requirement: {
      id: `req.${id.replace(/\//g, '.')}`,
      level: status === 'warn' ? 'SHOULD' : 'MUST',
      spec: `https://modelcontextprotocol.io/specification/2025-11-25/${page}`,
      text: 'The server does what the specification asks.',
    },
    message: `${status} as seen`,
    durationMs: 2.5,
    ...over,
  };
}

/** A loopback port free now, for a line that names one (a redirect_uri's: the official default, 3000, may be taken). */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let matrixSchema: ReturnType<InstanceType<typeof _Ajv2020.default>['compile']> | undefined;

/** What schema/matrix.schema.json finds wrong with `matrix` (nothing: it follows the schema). */
export function matrixSchemaErrors(matrix: unknown): unknown[] {
  matrixSchema ??= new _Ajv2020.default({ allErrors: true }).compile(
    JSON.parse(readFileSync(join(ROOT, 'schema/matrix.schema.json'), 'utf8')) as object,
  );
  return matrixSchema(matrix) ? [] : (matrixSchema.errors ?? []);
}
