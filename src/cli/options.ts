import { parseArgs } from 'node:util';

/** One row per option: this table drives parsing, --help and the README's option list. */
export const OPTIONS = {
  out: { type: 'string', default: 'reports', arg: 'DIR', help: 'Folder for report.json and junit.xml' },
  timeout: { type: 'string', default: '10', arg: 'SECONDS', help: 'Time to wait for each response' },
  budget: { type: 'string', default: '300', arg: 'SECONDS', help: 'Time for the whole run; checks still running then end as errors' },
  strict: { type: 'boolean', default: false, help: 'SHOULD violations fail instead of warn' },
  env: { type: 'string', multiple: true, arg: 'KEY=VALUE', help: 'Add to the server\'s environment (repeatable)' },
  cwd: { type: 'string', arg: 'DIR', help: 'Working directory of the server (default: the current one)' },
  verbose: { type: 'boolean', default: false, help: 'Also list passing and skipped checks; show whole transcripts' },
  color: { type: 'boolean', help: 'Force colours on (--no-color: off); default: on for a terminal unless NO_COLOR is set' },
  help: { type: 'boolean', short: 'h', help: 'Show this help' },
  version: { type: 'boolean', help: 'Show the version' },
} as const satisfies Record<string, { type: 'string' | 'boolean'; help: string; arg?: string; multiple?: boolean; default?: string | boolean; short?: string }>;

export class UsageError extends Error {}

export interface CliArgs {
  target?: string;
  command?: string[];
  out: string;
  timeoutMs: number;
  budgetMs: number;
  strict: boolean;
  env: Record<string, string>;
  cwd?: string;
  verbose: boolean;
  color?: boolean;
  help: boolean;
  version: boolean;
}

function seconds(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} takes a positive number of seconds, not ${JSON.stringify(value)}`);
  return Math.round(n * 1000);
}

/** Parses argv (without node and the script). Everything after `--` is the server command. */
export function parseCli(argv: string[]): CliArgs {
  const dashdash = argv.indexOf('--');
  const own = dashdash === -1 ? argv : argv.slice(0, dashdash);
  const command = dashdash === -1 ? undefined : argv.slice(dashdash + 1);
  const options = Object.fromEntries(
    Object.entries(OPTIONS).map(([name, o]) => [name, { type: o.type, multiple: 'multiple' in o, ...('short' in o && { short: o.short }) }]),
  ) as Record<string, { type: 'string' | 'boolean'; multiple: boolean }>;
  let parsed;
  try {
    parsed = parseArgs({ args: own, options, allowPositionals: true, allowNegative: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
  const v = parsed.values as Record<string, string | boolean | string[] | undefined>;
  const get = <T>(name: keyof typeof OPTIONS): T => (v[name] ?? (OPTIONS[name] as { default?: unknown }).default) as T;
  if (parsed.positionals.length > 1) throw new UsageError(`one target expected, got ${parsed.positionals.length}: ${parsed.positionals.join(' ')}`);
  if (command && command.length === 0) throw new UsageError('no command after --');
  if (command && parsed.positionals.length > 0) throw new UsageError('give either a target or -- <command>, not both');
  const env: Record<string, string> = {};
  for (const pair of get<string[] | undefined>('env') ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--env takes KEY=VALUE, not ${JSON.stringify(pair)}`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return {
    target: parsed.positionals[0],
    command,
    out: get('out'),
    timeoutMs: seconds('timeout', get('timeout')),
    budgetMs: seconds('budget', get('budget')),
    strict: get('strict'),
    env,
    cwd: get('cwd'),
    verbose: get('verbose'),
    color: v.color as boolean | undefined,
    help: get('help') ?? false,
    version: get('version') ?? false,
  };
}

export function helpText(): string {
  const rows = Object.entries(OPTIONS).map(([name, o]) => {
    const flag = `${'short' in o ? `-${o.short}, ` : ''}--${name}${'arg' in o ? ` ${o.arg}` : ''}`;
    const dflt = 'default' in o && typeof o.default === 'string' ? ` (default: ${o.default})` : '';
    return `  ${flag.padEnd(24)} ${o.help}${dflt}`;
  });
  return [
    'Usage: mcp-conformance [options] <target>',
    '       mcp-conformance [options] -- <command> [args...]',
    '',
    'Tests an MCP server against the specification and writes reports.',
    '<target> is a directory (its package.json bin or main), a .js/.mjs/.cjs/.ts/.py file, or an executable.',
    '',
    'Options:',
    ...rows,
    '',
    'Exit codes: 0 nothing failed, 1 a check failed, 2 usage or harness error.',
  ].join('\n');
}
