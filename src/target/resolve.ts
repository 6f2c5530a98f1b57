import {
  accessSync,
  constants,
  existsSync,
  openSync,
  readSync,
  closeSync,
  readFileSync,
  statSync,
  type Stats,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { quoteArg } from '../transport/server-process.js';
import type { TransportKind } from '../transport/transport.js';
import { IN_PROCESS, type Serve } from '../transport/in-process.js';
import type { LaunchPlan } from './launch-plan.js';

/** The target cannot be turned into a launch plan. The message is one line, meant for the user. */
export class TargetError extends Error {
  override readonly name = 'TargetError';
}

export interface TargetInput {
  /** A path to a server file or project directory, as the user typed it. */
  target?: string;
  /** The `-- cmd args…` form: run exactly this. */
  command?: string[];
  /** Relative paths are resolved against this; the server runs here. Default process.cwd(). */
  cwd?: string;
  /** Added to the inherited environment. */
  env?: Record<string, string>;
  /** The URL the started server answers at (it speaks HTTP); may contain `{port}`. */
  httpUrl?: string;
  /** Fills `{port}` in the URL, command and arguments and is passed as PORT; 'auto' picks a free one. */
  port?: number | 'auto';
  /** Default: stdio for commands and files, http (legacy SSE detected) for URLs. */
  transport?: TransportKind;
  /** Extra HTTP request headers. */
  headers?: Record<string, string>;
  /** A server of the caller's process, started on a fresh pair of streams for each session: then nothing else names one. */
  serve?: Serve;
}

const JS_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);
const TS_EXTENSIONS = new Set(['.ts', '.mts', '.cts']);
const DIR_ENTRY_FILES = ['index.js', 'server.js', 'index.py', 'server.py'];

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

function isExecutable(file: string): boolean {
  if (process.platform === 'win32') return true;
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The file's `#!` line, without the `#!`, or undefined. */
function readShebang(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const head = buf.subarray(0, n).toString('latin1');
    if (!head.startsWith('#!')) return undefined;
    const end = head.indexOf('\n');
    return (end < 0 ? head.slice(2) : head.slice(2, end)).trim();
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Finds an executable on PATH. */
function onPath(name: string): string | undefined {
  const exts = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      const st = statOrUndefined(candidate);
      if (st?.isFile() && isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The tsx CLI script of the tsx package installed at `pkgDir`, if any. */
function tsxCliIn(pkgDir: string): string | undefined {
  const pkgFile = path.join(pkgDir, 'package.json');
  if (!existsSync(pkgFile)) return undefined;
  try {
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { bin?: string | Record<string, string> };
    const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.tsx;
    if (!bin) return undefined;
    const cli = path.resolve(pkgDir, bin);
    return existsSync(cli) ? cli : undefined;
  } catch {
    return undefined;
  }
}

/** tsx from the target's own project (searching upward), else the one this tool depends on. */
function findTsxCli(file: string): string | undefined {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const cli = tsxCliIn(path.join(dir, 'node_modules', 'tsx'));
    if (cli) return cli;
    if (path.dirname(dir) === dir) break;
  }
  try {
    return createRequire(import.meta.url).resolve('tsx/cli');
  } catch {
    return undefined;
  }
}

function plan(
  description: string,
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): LaunchPlan {
  return { description, command, args, cwd, env };
}

function planForFile(file: string, description: string, cwd: string, env: Record<string, string>): LaunchPlan {
  const ext = path.extname(file).toLowerCase();
  if (JS_EXTENSIONS.has(ext)) return plan(description, process.execPath, [file], cwd, env);
  if (TS_EXTENSIONS.has(ext)) {
    const cli = findTsxCli(file);
    if (!cli) throw new TargetError(`${description} is a TypeScript file; install tsx (npm i -D tsx) or compile it`);
    return plan(description, process.execPath, [cli, file], cwd, env);
  }
  if (ext === '.py') return planForPython(file, description, cwd, env);

  const shebang = readShebang(file);
  if (isExecutable(file)) return plan(description, file, [], cwd, env);
  if (shebang !== undefined) {
    // Not executable, but it says what runs it (a bin script checked out without its x bit).
    if (/\bnode\b/.test(shebang)) return plan(description, process.execPath, [file], cwd, env);
    if (/\bpython3?\b/.test(shebang)) return planForPython(file, description, cwd, env);
    throw new TargetError(`${description} is not executable (chmod +x ${quoteArg(file)})`);
  }
  throw new TargetError(
    `do not know how to run ${description}: not executable and not .js/.mjs/.cjs/.ts/.mts/.py (use -- <command> to say how)`,
  );
}

function planForPython(file: string, description: string, cwd: string, env: Record<string, string>): LaunchPlan {
  const python = onPath('python3') ?? (process.platform === 'win32' ? onPath('python') : undefined);
  if (!python) throw new TargetError(`${description} is a Python file, but python3 is not on PATH`);
  return plan(description, python, [file], cwd, env);
}

/** Node-style resolution of a package.json `main` (with or without extension, or a folder with index.js). */
function resolveMain(dir: string, main: string): string | undefined {
  const base = path.resolve(dir, main);
  for (const candidate of [base, `${base}.js`, `${base}.mjs`, `${base}.cjs`, path.join(base, 'index.js')]) {
    if (statOrUndefined(candidate)?.isFile()) return candidate;
  }
  return undefined;
}

/** The file to run for a project directory. */
function entryOfDirectory(dir: string, description: string): string {
  const pkgFile = path.join(dir, 'package.json');
  if (existsSync(pkgFile)) {
    let pkg: { name?: unknown; bin?: unknown; main?: unknown };
    try {
      pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as typeof pkg;
    } catch (err) {
      throw new TargetError(
        `${path.join(description, 'package.json')} is not valid JSON: ${(err as Error).message.split('\n')[0]}`,
      );
    }
    let bin: string | undefined;
    if (typeof pkg.bin === 'string') {
      bin = pkg.bin;
    } else if (pkg.bin && typeof pkg.bin === 'object') {
      const entries = Object.entries(pkg.bin as Record<string, unknown>).filter(
        (e): e is [string, string] => typeof e[1] === 'string',
      );
      if (entries.length === 1) {
        bin = entries[0]![1];
      } else if (typeof pkg.name === 'string') {
        const name = pkg.name;
        const unscoped = name.replace(/^@[^/]+\//, '');
        bin = (entries.find(([key]) => key === name) ?? entries.find(([key]) => key === unscoped))?.[1];
      }
    }
    if (bin !== undefined) {
      const file = path.resolve(dir, bin);
      if (!statOrUndefined(file)?.isFile()) {
        throw new TargetError(
          `${description}: package.json bin points to ${bin}, which does not exist (build the project first?)`,
        );
      }
      return file;
    }
    if (typeof pkg.main === 'string' && pkg.main !== '') {
      const file = resolveMain(dir, pkg.main);
      if (!file)
        throw new TargetError(
          `${description}: package.json main points to ${pkg.main}, which does not exist (build the project first?)`,
        );
      return file;
    }
  }
  for (const name of DIR_ENTRY_FILES) {
    const file = path.join(dir, name);
    if (statOrUndefined(file)?.isFile()) return file;
  }
  throw new TargetError(
    `${description} is a directory without a package.json bin or main, and without ${DIR_ENTRY_FILES.join(', ')}`,
  );
}

const isUrl = (text: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(text);

/** A port nothing listens on right now (the server binds it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Turns what the user pointed at (a file, a project directory, a command, or a URL) into a launch plan.
 * Throws {@link TargetError} with a one-line message when it cannot.
 */
export async function resolveTarget(input: TargetInput): Promise<LaunchPlan> {
  if (input.serve !== undefined) return inProcessPlan(input);
  const plan = await planFor(input);
  // The replay line starts the server as this run did: its folder, environment, transport and headers (whose values
  // every report shows as ***), then the target.
  const server = [
    ...(input.cwd === undefined ? [] : ['--cwd', quoteArg(input.cwd)]),
    ...Object.entries(input.env ?? {}).flatMap(([k, v]) => ['--env', quoteArg(`${k}=${v}`)]),
    ...(input.transport === undefined ? [] : ['--transport', input.transport]),
    ...Object.entries(input.headers ?? {}).flatMap(([k, v]) => ['--header', quoteArg(`${k}: ${v}`)]),
  ];
  return { ...plan, cliTarget: [...server, plan.cliTarget ?? quoteArg(plan.description)].join(' ') };
}

/** A server of the caller's process: it has no command, folder, environment or URL, so none may be given. */
function inProcessPlan(input: TargetInput): LaunchPlan {
  if (typeof input.serve !== 'function')
    throw new TargetError(`serve must be a function ({ input, output }) => …, not ${typeof input.serve}`);
  const given = (key: keyof TargetInput) =>
    input[key] !== undefined && (typeof input[key] !== 'object' || Object.keys(input[key]).length > 0);
  const others = (['target', 'command', 'cwd', 'env', 'httpUrl', 'port', 'transport', 'headers'] as const).filter(
    given,
  );
  if (others.length > 0)
    throw new TargetError(`serve runs the server in this process: give no ${others.join(', ')} with it`);
  return {
    description: IN_PROCESS,
    command: '',
    args: [],
    cwd: process.cwd(),
    env: {},
    transport: 'in-process',
    serve: input.serve,
  };
}

async function planFor(input: TargetInput): Promise<LaunchPlan> {
  const cwd = path.resolve(input.cwd ?? process.cwd());
  const env = { ...(input.env ?? {}) };
  const url = input.target !== undefined && isUrl(input.target) ? input.target : input.httpUrl;
  const http = { transport: input.transport ?? 'http', headers: input.headers ?? {} };
  if (url === undefined) {
    if (input.transport !== undefined && input.transport !== 'stdio')
      throw new TargetError(
        `--transport ${input.transport} needs a URL: a URL target, or --http-url with the command that serves it`,
      );
    if (Object.keys(input.headers ?? {}).length > 0)
      throw new TargetError('--header applies to HTTP servers only (a URL target, or --http-url)');
    if (input.port !== undefined)
      throw new TargetError('--port needs --http-url: it names the port the started server listens on');
    return resolveLaunch(input, cwd, env);
  }
  if (input.transport === 'stdio')
    throw new TargetError(`${url} is a URL; --transport stdio needs a file, a directory or -- <command>`);
  if (url === input.target) {
    if (input.httpUrl !== undefined)
      throw new TargetError('give either a URL target or --http-url with a command, not both');
    if (input.port !== undefined)
      throw new TargetError('--port needs --http-url: a URL target is a server that is already running');
    return { description: url, command: '', args: [], cwd, env, url, ...http };
  }
  if (!isUrl(url)) throw new TargetError(`--http-url takes a URL such as http://127.0.0.1:{port}/mcp, not ${url}`);
  const port = input.port === 'auto' ? await freePort() : input.port;
  const launch = await resolveLaunch(input, cwd, env);
  const cliTarget = [
    '--http-url',
    quoteArg(url),
    ...(input.port === undefined ? [] : ['--port', String(input.port)]),
    launch.cliTarget ?? quoteArg(launch.description),
  ].join(' ');
  if (port === undefined) {
    if ([url, launch.command, ...launch.args].some((s) => s.includes('{port}')))
      throw new TargetError('{port} appears in the URL or the command: give --port N or --port auto');
    return { ...launch, cliTarget, url, ...http };
  }
  const fill = (text: string) => text.replaceAll('{port}', String(port));
  return {
    ...launch,
    description: fill(launch.description),
    cliTarget,
    command: fill(launch.command),
    args: launch.args.map(fill),
    env: { ...launch.env, PORT: String(port) },
    url: fill(url),
    ...http,
  };
}

/** The plan of a server to start: a command, or a file or project directory to run. */
async function resolveLaunch(input: TargetInput, cwd: string, env: Record<string, string>): Promise<LaunchPlan> {
  if (input.command !== undefined) {
    const [command, ...args] = input.command;
    if (command === undefined || command === '') throw new TargetError('no command given after --');
    const description = input.command.map(quoteArg).join(' ');
    return { ...plan(description, command, args, cwd, env), cliTarget: `-- ${description}` };
  }

  const target = input.target;
  if (target === undefined || target === '')
    throw new TargetError('no target given: pass a server path, a URL, or -- <command> [args…]');

  const absolute = path.resolve(cwd, target);
  const st = statOrUndefined(absolute);
  if (!st) {
    const hint = /\s/.test(target.trim()) ? ` (to run a command, put it after --: -- ${target.trim()})` : '';
    throw new TargetError(`target not found: ${absolute}${hint}`);
  }
  const file = st.isDirectory() ? entryOfDirectory(absolute, target) : absolute;
  return planForFile(file, target, cwd, env);
}
