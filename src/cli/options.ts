import { parseArgs } from 'node:util';
import { CONFIG_FILE } from '../config/config.js';
import { DEFAULTS } from '../config/defaults.js';
import type { ConformanceOptions } from '../config/options.js';

interface OptionRow {
  type: 'string' | 'boolean';
  help: string;
  /** The value's placeholder in --help and the README. */
  arg?: string;
  short?: string;
  /** May be given several times; the values are collected in order. */
  multiple?: boolean;
  /** Shown by --help. */
  default?: string | number;
  /** The run option this flag sets: the same key in the config file and the programmatic API. */
  option?: keyof ConformanceOptions;
  /** Turns the flag's text into the option's value (else the text is the value). */
  parse?: (value: never, flag: string) => unknown;
}

export class UsageError extends Error {}

/** A subcommand's own parse: a flag it does not know is a usage error, followed by its usage. */
export function parsedOr<T>(parse: () => T, usage: string): T {
  try {
    return parse();
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${usage}`);
  }
}

function seconds(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`--${flag} takes a positive number of seconds, not ${JSON.stringify(value)}`);
  return n;
}

/** A flag's seconds, or `fallback` when it was not given. */
export const secondsOr = (value: string | undefined, flag: string, fallback: number): number =>
  value === undefined ? fallback : seconds(value, flag);

function integer(min: number) {
  return (value: string, flag: string): number => {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < min)
      throw new UsageError(`--${flag} takes an integer of at least ${min}, not ${JSON.stringify(value)}`);
    return n;
  };
}

function envPairs(pairs: string[], flag: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--${flag} takes KEY=VALUE, not ${JSON.stringify(pair)}`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

/** `Name: value` lines as headers. A bad line is not echoed: it may hold a credential. */
function headerLines(lines: string[], flag: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, Math.max(colon, 0)).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new UsageError(`--${flag} takes 'Name: value' with a header name before the colon`);
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

function port(value: string, flag: string): number | 'auto' {
  if (value === 'auto') return value;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535)
    throw new UsageError(`--${flag} takes a port number (1-65535) or auto, not ${JSON.stringify(value)}`);
  return n;
}

/** One row per option: this table drives parsing, --help and the README's option list (a test keeps them equal). */
export const OPTIONS = {
  config: {
    type: 'string',
    arg: 'FILE',
    option: 'config',
    help: `Config file (default: ./${CONFIG_FILE} when it exists); the other options override it`,
  },
  out: { type: 'string', arg: 'DIR', option: 'out', default: DEFAULTS.out, help: 'Folder for the reports' },
  timeout: {
    type: 'string',
    arg: 'SECONDS',
    option: 'timeout',
    parse: seconds,
    default: DEFAULTS.timeout,
    help: 'Time to wait for each response',
  },
  budget: {
    type: 'string',
    arg: 'SECONDS',
    option: 'budget',
    parse: seconds,
    default: DEFAULTS.budget,
    help: 'Time for the whole run; checks still running then end as errors',
  },
  strict: { type: 'boolean', option: 'strict', help: 'SHOULD violations fail instead of warn' },
  env: {
    type: 'string',
    multiple: true,
    arg: 'KEY=VALUE',
    option: 'env',
    parse: envPairs,
    help: "Add to the server's environment (repeatable)",
  },
  cwd: {
    type: 'string',
    arg: 'DIR',
    option: 'cwd',
    help: 'Working directory of the server (default: the current one)',
  },
  header: {
    type: 'string',
    multiple: true,
    arg: 'HEADER',
    option: 'headers',
    parse: headerLines,
    help: "HTTP request header 'Name: value' for an HTTP server, e.g. auth (repeatable); reports show its value as ***",
  },
  secret: {
    type: 'string',
    multiple: true,
    arg: 'NAME',
    option: 'secrets',
    help: 'The value of environment variable NAME is a secret: reports show it as *** (repeatable; names with TOKEN, KEY, SECRET, PASSWORD, AUTH… are already)',
  },
  'http-url': {
    type: 'string',
    arg: 'URL',
    option: 'httpUrl',
    help: 'Start the server (target or -- command), wait until URL answers, and test it over HTTP there',
  },
  port: {
    type: 'string',
    arg: 'PORT',
    option: 'port',
    parse: port,
    help: 'A port number or auto (a free one): fills {port} in --http-url and the command, and is passed as PORT',
  },
  transport: {
    type: 'string',
    arg: 'KIND',
    option: 'transport',
    help: 'stdio, http (Streamable HTTP; a legacy SSE server is detected) or sse (legacy HTTP+SSE); default: http for URLs, else stdio',
  },
  cases: {
    type: 'string',
    multiple: true,
    arg: 'DIR',
    option: 'cases',
    help: 'Also run your own YAML cases from DIR (repeatable)',
  },
  only: {
    type: 'string',
    multiple: true,
    arg: 'ID',
    option: 'only',
    help: 'Run only these checks: ids or globs such as tools/** (repeatable; * stays within one segment of an id, ** crosses /). A glob that matches no check is an error',
  },
  skip: {
    type: 'string',
    multiple: true,
    arg: 'ID',
    option: 'skip',
    help: 'Leave out these checks: ids or globs (repeatable)',
  },
  'allow-empty': {
    type: 'boolean',
    option: 'allowEmpty',
    help: 'A run whose every check is skipped (nothing applied to the server) exits 0; without it such a run exits 2',
  },
  revision: {
    type: 'string',
    arg: 'REVISION',
    option: 'revision',
    default: DEFAULTS.revision,
    help: 'Protocol revision to test: auto (each era the server speaks), all (every revision), 2026-07-28 (stateless wire: server/discover, _meta on every request), or 2025-11-25, 2025-06-18, 2025-03-26 asked for at initialize. Several revisions: one report each in OUT/REVISION/, all of them side by side in OUT/',
  },
  'expected-failures': {
    type: 'string',
    arg: 'FILE',
    option: 'expectedFailures',
    help: 'YAML list of checks expected to fail: they do not fail the run, but a listed check that passes does',
  },
  'update-baseline': {
    type: 'boolean',
    help: 'Write the --expected-failures file from this run: every failure listed, entries that cover one kept with their reasons, the others removed; new entries pin the message',
  },
  seed: {
    type: 'string',
    arg: 'N',
    option: 'seed',
    parse: integer(0),
    help: 'Seed of the generated checks, to replay a run (default: a random one, printed after the run)',
  },
  runs: {
    type: 'string',
    arg: 'N',
    option: 'runs',
    parse: integer(1),
    default: DEFAULTS.runs,
    help: 'Values each generated check (property) tries',
  },
  'max-starts': {
    type: 'string',
    arg: 'N',
    option: 'maxStarts',
    parse: integer(1),
    help: 'Server processes that may be starting at once (default: one a core for a server heavy to start, two a core for a light one; 1 starts them one at a time)',
  },
  'tool-calls': {
    type: 'string',
    arg: 'MODE',
    option: 'toolCalls',
    default: DEFAULTS.toolCalls,
    help: 'Tools generated calls may reach: safe (annotated readOnlyHint: true, or allowed), all (sandboxes only), none',
  },
  'allow-tool': {
    type: 'string',
    multiple: true,
    arg: 'NAME',
    option: 'allowTools',
    help: 'Let generated calls reach this tool in safe mode too (repeatable)',
  },
  shard: {
    type: 'string',
    arg: 'I/N',
    option: 'shard',
    help: "Run only shard I of N of the checks (for a CI matrix); merge the shards' reports with the report command",
  },
  'token-env': {
    type: 'string',
    arg: 'NAME',
    option: 'tokenEnv',
    help: 'Environment variable holding the bearer token of an HTTP server: sent as Authorization: Bearer <value>; reports show it as ***',
  },
  'auth-server': {
    type: 'boolean',
    option: 'authServer',
    help: 'Run a local authorization server on loopback that issues the tokens of the authorization checks; a server the run starts gets its URLs as MCP_CONFORMANCE_ISSUER and MCP_CONFORMANCE_JWKS_URL',
  },
  'auth-server-port': {
    type: 'string',
    arg: 'PORT',
    option: 'authServerPort',
    parse: integer(1),
    help: 'Port of the --auth-server (default: a free one), for a server started elsewhere that must trust it in advance',
  },
  watch: {
    type: 'boolean',
    help: 'After the run, run again whenever a file of the server changes (its folder, or the --watch-path ones), the checks that failed first, printing only what changed; Ctrl-C ends',
  },
  'watch-path': {
    type: 'string',
    multiple: true,
    arg: 'PATH',
    help: "A file or folder --watch watches instead of the server's folder (repeatable)",
  },
  verbose: {
    type: 'boolean',
    help: 'Also list passing and skipped checks; show whole transcripts; print a line per area as it ends',
  },
  color: {
    type: 'boolean',
    help: 'Force colours on (--no-color: off); default: on for a terminal unless NO_COLOR is set',
  },
  help: { type: 'boolean', short: 'h', help: 'Show this help' },
  version: { type: 'boolean', help: 'Show the version' },
} as const satisfies Record<string, OptionRow>;

export interface CliArgs {
  /** What the flags and the target set; a config file fills in the rest when the run resolves them. */
  options: ConformanceOptions;
  verbose: boolean;
  /** Write the expected-failures file from the run. */
  updateBaseline: boolean;
  /** Run again on changes to these paths (none given: the server's folder); undefined without --watch. */
  watch?: string[];
  color?: boolean;
  help: boolean;
  version: boolean;
}

/** Parses argv (without node and the script). Everything after `--` is the server command. */
export function parseCli(argv: string[]): CliArgs {
  const dashdash = argv.indexOf('--');
  const own = dashdash === -1 ? argv : argv.slice(0, dashdash);
  const command = dashdash === -1 ? undefined : argv.slice(dashdash + 1);
  const rows: [string, OptionRow][] = Object.entries(OPTIONS);
  const config = Object.fromEntries(
    rows.map(([name, o]) => [
      name,
      { type: o.type, multiple: o.multiple ?? false, ...(o.short && { short: o.short }) },
    ]),
  );
  let parsed;
  try {
    parsed = parseArgs({ args: own, options: config, allowPositionals: true, allowNegative: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
  const v = parsed.values as Record<string, string | boolean | string[] | undefined>;
  if (parsed.positionals.length > 1)
    throw new UsageError(`one target expected, got ${parsed.positionals.length}: ${parsed.positionals.join(' ')}`);
  if (command && command.length === 0) throw new UsageError('no command after --');
  if (command && parsed.positionals.length > 0) throw new UsageError('give either a target or -- <command>, not both');
  const options: Record<string, unknown> = { target: command ?? parsed.positionals[0] };
  for (const [name, o] of rows) {
    const value = v[name];
    if (o.option !== undefined && value !== undefined)
      options[o.option] = o.parse ? o.parse(value as never, name) : value;
  }
  if (v['watch-path'] !== undefined && v.watch !== true) throw new UsageError('--watch-path is for --watch');
  const watch = v.watch === true ? ((v['watch-path'] as string[] | undefined) ?? []) : undefined;
  return {
    options,
    verbose: v.verbose === true,
    updateBaseline: v['update-baseline'] === true,
    ...(watch && { watch }),
    color: v.color as boolean | undefined,
    help: v.help === true,
    version: v.version === true,
  };
}

/** How the command line names the run option `key` (`toolCalls` → `--tool-calls`); a key no flag sets, as it is. */
export function flagOf(key: string): string {
  const row = Object.entries(OPTIONS).find(([, o]: [string, OptionRow]) => o.option === key);
  return row ? `--${row[0]}` : `option ${key}`;
}

export function helpText(): string {
  const rows = Object.entries(OPTIONS).map(([name, o]: [string, OptionRow]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.arg ? ` ${o.arg}` : ''}`;
    return `  ${flag.padEnd(26)} ${o.help}${o.default !== undefined ? ` (default: ${o.default})` : ''}`;
  });
  return [
    'Usage: mcp-conformance [options] <target>',
    '       mcp-conformance [options] -- <command> [args...]',
    '       mcp-conformance [options] --http-url http://127.0.0.1:{port}/mcp --port auto -- <command> [args...]',
    '       mcp-conformance diff <OLD> <NEW> [--format console|json|markdown]   (what changed between two runs)',
    '       mcp-conformance init [--target PATH | --url URL | -- <command>] [--force]   (config, CI workflow, baseline)',
    '       mcp-conformance mcp   (the suite as an MCP server over stdio, for MCP hosts and coding agents)',
    '       mcp-conformance explain <check-id>   (the requirement a check holds a server to, and how to fix it)',
    '       mcp-conformance server --url URL | client --command "CMD" [--suite S] [-o DIR] …   (the official suite\'s line; docs/official-command-line.md)',
    '',
    'Tests an MCP server against the specification and writes reports.',
    '<target> is a directory (its package.json bin or main), a .js/.mjs/.cjs/.ts/.py file, an executable,',
    'or the URL of a running HTTP server (http://host:port/mcp).',
    '',
    'Options:',
    ...rows,
    '',
    'Exit codes: 0 nothing failed, 1 a check failed or an expected failure passed, 2 usage or harness error, or nothing tested.',
  ].join('\n');
}
