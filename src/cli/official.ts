// The official conformance suite's command line, read as it is (`npx @modelcontextprotocol/conformance server --url
// URL …`, `… client --command "CMD" --suite all …`) and translated to ours: the same line with only the package name
// changed runs our checks. It is taken only after the official subcommand word and its telling flag (`server --url`,
// `client --command`), so every line of ours, where some flags share a name and not a meaning, reads as before.
import { parseArgs } from 'node:util';
import { SCENARIOS as AUTH_SCENARIOS } from '../auth/scenarios.js';
import { CLIENT_SCENARIOS } from '../checks/client-side/scenarios.js';
import { DEFAULTS } from '../config/defaults.js';
import { REVISIONS, STATELESS_REVISION } from '../schema/revisions.js';
import { REQUIREMENT_SETS } from './official-requirements.js';
import { OFFICIAL_SERVER_SCENARIOS } from '../report/official-server-scenarios.js';
import { UsageError } from './options.js';

export type Side = 'server' | 'client';

/** What an official line asks for, as our command line and what the official layer does after it. */
export interface OfficialLine {
  side: Side;
  /** Our command line: the main run's for a server, `client`'s (without the word) for a client. */
  argv: string[];
  /** Where our reports go: --output-dir, else our default folder. */
  out: string;
  /** -o/--output-dir: the official results layout is written there too. */
  outputDir?: string;
  /** --expected-failures: read in the official shape, else handed to our run as our own baseline. */
  expectedFailures?: string;
  /** --requirements: the frozen set in our scenario names (a server's: our areas), and what we have not. */
  requirements?: Required;
}

/** A frozen requirement set mapped onto ours: what is scored, what runs unscored (with why), what we lack. */
export interface Required {
  revision: string;
  scored: string[];
  notScored: { scenario: string; reason: string }[];
  missing: string[];
}

/** The frozen set of `revision` for one side, in our names; the official names we have no scenario for are `missing`. */
export function requiredOf(side: Side, revision: string): Required {
  const set = REQUIREMENT_SETS[revision];
  if (!set)
    throw new UsageError(
      `--requirements ${JSON.stringify(revision)}: the frozen sets are ${Object.keys(REQUIREMENT_SETS).join(', ')}`,
    );
  const ours = side === 'server' ? serverAreaOf : (name: string) => name;
  const known = new Set([...mcp, ...authNames]);
  const have = (name: string) => side === 'server' || known.has(name);
  const scored = [...new Set(set[side].filter(have).map(ours))];
  const notScored = set.notScored
    .filter((e) => e.leg === side && have(e.scenario) && !scored.includes(ours(e.scenario)))
    .map((e) => ({ scenario: ours(e.scenario), reason: e.reason }));
  const missing = [...set[side], ...set.notScored.filter((e) => e.leg === side).map((e) => e.scenario)].filter(
    (n) => !have(n),
  );
  return {
    revision,
    scored,
    notScored: notScored.filter((e, i) => notScored.findIndex((o) => o.scenario === e.scenario) === i),
    missing,
  };
}

const has = (args: readonly string[], flag: string) => args.some((a) => a === flag || a.startsWith(`${flag}=`));

/** Which official subcommand a line is, if any: `server --url …` or `client --command …` (before any `--`). */
export function officialSide(argv: readonly string[]): Side | undefined {
  const [first, ...rest] = argv;
  const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (first === 'server' && has(own, '--url')) return 'server';
  if (first === 'client' && has(own, '--command')) return 'client';
  return undefined;
}

const COMMON = {
  scenario: { type: 'string', multiple: true },
  suite: { type: 'string' },
  timeout: { type: 'string' },
  'expected-failures': { type: 'string' },
  'output-dir': { type: 'string', short: 'o' },
  'spec-version': { type: 'string' },
  requirements: { type: 'string' },
  force: { type: 'boolean' },
  verbose: { type: 'boolean' },
} as const;

/** The official `--spec-version`: a dated revision, or `draft` (its alias of the next one: for us 2026-07-28). */
const revisionOf = (v: string) => (v === 'draft' || v.startsWith('DRAFT-') ? STATELESS_REVISION : v);

function milliseconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`--timeout takes a positive number of milliseconds, not ${JSON.stringify(value)}`);
  return n;
}

/**
 * The official server scenarios have no counterpart check by check: each maps to the area of ours that holds its
 * rules, by its first word (tools-call-image → tools) or, where that word is no area of ours, by this table.
 */
const SERVER_AREA: [prefix: string, area: string][] = [
  ['server-initialize', 'lifecycle'],
  ['server-sse', 'transport'],
  ['dns-rebinding', 'transport'],
  ['server-stateless', 'stateless'],
  ['input-required-result', 'stateless'],
  ['caching', 'stateless'],
  ['sep-2164', 'resources'],
  ['tasks-', 'tasks-ext'],
  ['elicitation-', 'tools'],
  ['http-', 'transport'],
  ['json-schema', 'tools'],
  ['sep-2350', 'auth'],
  ['server-session', 'lifecycle'],
];

/** Our area for an official server scenario name, or the name itself when it is one of our areas. */
export function serverAreaOf(name: string): string {
  return SERVER_AREA.find(([prefix]) => name.startsWith(prefix))?.[1] ?? name.split('-')[0];
}

/** What `--scenario NAME` selects: the checks judging an official scenario's rule, else the area holding it. */
export function serverSelectionOf(name: string): readonly string[] {
  return OFFICIAL_SERVER_SCENARIOS[name] ?? [`${serverAreaOf(name)}/**`];
}

/** What each official server suite selects, as our flags. */
const SERVER_SUITES: Record<string, string[]> = {
  active: [],
  core: [],
  // We have no pending tier: every check that applies runs, so pending selects what active does.
  pending: [],
  all: ['--revision', 'all'],
  draft: ['--revision', STATELESS_REVISION],
  auth: ['--only', 'auth/**'],
  extensions: ['--only', 'apps/**', '--only', 'tasks-ext/**', '--only', 'skills/**'],
};

const auth = (tier: string) => AUTH_SCENARIOS.filter((s) => s.tier === tier).map((s) => s.name);
const mcp = CLIENT_SCENARIOS.map((s) => s.name);
const draftOnly = CLIENT_SCENARIOS.filter((s) => s.revisions.every((r) => r === STATELESS_REVISION)).map((s) => s.name);
const authNames = AUTH_SCENARIOS.map((s) => s.name);
/** The authorization scenarios of the oldest revision alone (2025-03-26: before resource metadata). */
const backcompat = AUTH_SCENARIOS.filter((s) => s.revisions.every((r) => r === REVISIONS.at(-1))).map((s) => s.name);

/** What each official client suite selects, as our scenario names. */
const CLIENT_SUITES: Record<string, () => string[]> = {
  all: () => [...mcp, ...authNames],
  core: () => [...mcp, ...auth('core')],
  auth: () => [...auth('core'), ...auth('draft')],
  extensions: () => auth('extension'),
  backcompat: () => backcompat,
  metadata: () => authNames.filter((n) => n.startsWith('auth/metadata-')),
  'sep-835': () => authNames.filter((n) => n.startsWith('auth/scope-')),
  draft: () => [...draftOnly, ...auth('draft')],
};

/** A suite's flags with `revision`, when one is asked for, in place of the suite's own. */
function withRevision(flags: readonly string[], revision: string | undefined): string[] {
  if (!revision) return [...flags];
  const i = flags.indexOf('--revision');
  const rest = i < 0 ? flags : [...flags.slice(0, i), ...flags.slice(i + 2)];
  return [...rest, '--revision', revision];
}

const unknownSuite = (suite: string, suites: object) =>
  new UsageError(`unknown suite ${JSON.stringify(suite)}: the suites are ${Object.keys(suites).join(', ')}`);

/**
 * The client command as the official runner starts it: the string split at each space, the URL appended, all of it
 * through a shell. A string of plain words is the same as its words, so it is started as they are; one with quotes or
 * shell syntax goes through `sh -c`, with the URL as its argument.
 */
export function clientCommandOf(command: string): string[] {
  if (/^[\w./:=@%+,-]+( [\w./:=@%+,-]+)*$/.test(command)) return command.split(' ');
  return ['sh', '-c', `${command} "$@"`, 'sh'];
}

/** Translates an official line (after its subcommand word) to ours; a mistake in it is a UsageError. */
export function translateOfficial(side: Side, argv: readonly string[]): OfficialLine {
  // The server's line names its server (--url), the client's its client (--command).
  const options = { ...COMMON, [side === 'server' ? 'url' : 'command']: { type: 'string' as const } };
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }) as {
      values: typeof values;
    });
  } catch (err) {
    throw new UsageError(`${side}: ${(err as Error).message.split('\n')[0]}`);
  }
  const str = (k: string) => values[k] as string | undefined;
  const scenarios = (values.scenario as string[] | undefined) ?? [];
  const suite = str('suite')?.toLowerCase();
  const requirements = str('requirements');
  if (requirements !== undefined && (suite || scenarios.length > 0 || str('spec-version')))
    throw new UsageError(
      `--requirements cannot be combined with ${suite ? '--suite' : scenarios.length > 0 ? '--scenario' : '--spec-version'}: a requirement set already fixes which scenarios run`,
    );
  const revision = requirements ?? (str('spec-version') && revisionOf(str('spec-version')!));
  const outputDir = str('output-dir');
  const out = outputDir ?? DEFAULTS.out;
  const timeout = str('timeout') === undefined ? undefined : milliseconds(str('timeout')!) / 1000;
  const required = requirements === undefined ? undefined : requiredOf(side, requirements);
  const runs = required && [...required.scored, ...required.notScored.map((e) => e.scenario)];
  const common = {
    ...(required && { requirements: required }),
    side,
    out,
    ...(outputDir && { outputDir }),
    ...(str('expected-failures') && { expectedFailures: str('expected-failures') }),
  };

  if (side === 'server') {
    const selection = runs
      ? runs.flatMap((a) => ['--only', `${a}/**`])
      : scenarios.length > 0
        ? [...new Set(scenarios.flatMap(serverSelectionOf))].flatMap((glob) => ['--only', glob])
        : SERVER_SUITES[suite ?? 'active'];
    if (!selection) throw unknownSuite(suite!, SERVER_SUITES);
    return {
      ...common,
      argv: [
        str('url')!,
        '--out',
        out,
        ...withRevision(selection, revision),
        ...(timeout !== undefined ? ['--timeout', String(timeout)] : []),
        ...(values.verbose ? ['--verbose'] : []),
      ],
    };
  }

  const command = str('command');
  if (!command) throw new UsageError('client: --command is empty');
  let names = runs ?? scenarios;
  if (suite) {
    const pick = CLIENT_SUITES[suite];
    if (!pick) throw unknownSuite(suite, CLIENT_SUITES);
    names = pick();
  } else if (names.length === 0 && requirements === undefined)
    throw new UsageError('client: either --scenario or --suite is required (mcp-conformance list --client lists them)');
  return {
    ...common,
    argv: [
      ...names.flatMap((n) => ['--scenario', n]),
      ...(revision ? ['--revision', revision] : []),
      ...(timeout !== undefined ? ['--scenario-timeout', String(timeout)] : []),
      '--out',
      out,
      '--',
      ...clientCommandOf(command),
    ],
  };
}
