// The official conformance suite's command line, read as it is (`npx @modelcontextprotocol/conformance server --url
// URL …`, `… client --command "CMD" --suite all …`) and translated to ours: the same line with only the package name
// changed runs our checks. It is taken only after the official subcommand word and its telling flag (`server --url`,
// `client --command`), so every line of ours, where some flags share a name and not a meaning, reads as before.
import { parseArgs } from 'node:util';
import { SCENARIOS as AUTH_SCENARIOS } from '../auth/scenarios.js';
import { CLIENT_SCENARIOS } from '../checks/client-side/scenarios.js';
import { DEFAULTS } from '../config/defaults.js';
import { SCHEMA_REVISIONS, STATELESS_REVISION } from '../schema/revisions.js';
import { REQUIREMENT_SETS } from './official-requirements.js';
import { OFFICIAL_CLIENT_SUITES, OFFICIAL_PENDING_SERVER } from './official-suites.js';
import { OFFICIAL_SERVER_SCENARIOS, unjudgedReason } from '../report/official-server-scenarios.js';
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
  /** --requirements: the frozen set by official scenario name, and what we have not. */
  requirements?: Required;
  /** Official names the suite or set lists that nothing here runs or judges, each with why. */
  notHere?: Named[];
  /** Named client scenarios left out as not applicable at --spec-version (the official runner skips them). */
  notApplicable?: string[];
  /** Nothing to run (every scenario asked for is not applicable at --spec-version): why; the run exits 0. */
  skipped?: string;
}

export interface Named {
  scenario: string;
  reason: string;
}

/** A frozen requirement set by official scenario name: what is scored, what runs unscored (with why), what we lack. */
export interface Required {
  revision: string;
  scored: string[];
  notScored: Named[];
  missing: Named[];
}

/**
 * The frozen set of `revision` for one side. A client's names are our scenarios of the same names; a server's are the
 * official scenarios checks here judge (official-server-scenarios.ts), each a folder of its own. A name we have no
 * scenario for, or no check judging, is `missing`, with why.
 */
export function requiredOf(side: Side, revision: string): Required {
  const set = REQUIREMENT_SETS[revision];
  if (!set)
    throw new UsageError(
      `--requirements ${JSON.stringify(revision)}: the frozen sets are ${Object.keys(REQUIREMENT_SETS).join(', ')}`,
    );
  const have = side === 'server' ? (n: string) => n in OFFICIAL_SERVER_SCENARIOS : haveClient;
  const why = side === 'server' ? unjudgedReason : () => NO_SCENARIO;
  const notScored = set.notScored.filter((e) => e.leg === side);
  return {
    revision,
    scored: set[side].filter(have),
    notScored: notScored.filter((e) => have(e.scenario)).map(({ scenario, reason }) => ({ scenario, reason })),
    missing: [...set[side], ...notScored.map((e) => e.scenario)]
      .filter((n) => !have(n))
      .map((scenario) => ({ scenario, reason: why(scenario) })),
  };
}

const has = (args: readonly string[], flag: string) => args.some((a) => a === flag || a.startsWith(`${flag}=`));

/**
 * Which official subcommand a line is, if any: `server --url …` or `client --command …` (before any `--`). The older
 * official `server --command` and `--interactive` (a server started by the runner, for its authorization suite) are
 * gone from its newest command line, so they are a usage error naming ours.
 */
export function officialSide(argv: readonly string[]): Side | undefined {
  const [first, ...rest] = argv;
  const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  const gone = ['--command', '--interactive'].find((flag) => has(own, flag));
  if (first === 'server' && gone)
    throw new UsageError(
      `server ${gone}: the official suite's server line takes --url alone now; to start a server by command, use ours: mcp-conformance -- CMD ARGS…`,
    );
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
function revisionOf(v: string): string {
  const revision = v === 'draft' || v.startsWith('DRAFT-') ? STATELESS_REVISION : v;
  if (!(SCHEMA_REVISIONS as readonly string[]).includes(revision))
    throw new UsageError(
      `--spec-version takes draft or one of ${SCHEMA_REVISIONS.join(', ')}, not ${JSON.stringify(v)}`,
    );
  return revision;
}

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
  ['sep-2640-skills', 'skills'],
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

/** Selects the checks judging each official scenario, as `--only` flags. */
const selecting = (names: readonly string[]) =>
  [...new Set(names.flatMap(serverSelectionOf))].flatMap((glob) => ['--only', glob]);

/**
 * What each official server suite selects, as our flags. `active` (and its alias `core`) is every scenario of the
 * released revisions, which our default run is (each era the server speaks); `pending`, the scenarios out of `active`
 * as its everything-server does not pass them yet, is the checks judging those.
 */
const SERVER_SUITES: Record<string, string[]> = {
  active: [],
  core: [],
  all: ['--revision', 'all'],
  pending: selecting(OFFICIAL_PENDING_SERVER),
  draft: ['--revision', STATELESS_REVISION],
};

const NO_SCENARIO = 'no scenario here';
/** Our client scenarios, the MCP ones and the authorization ones: name → its revisions, and whether an extension. */
const CLIENT_SIDE = new Map<string, { revisions: readonly string[]; extension: boolean }>([
  ...CLIENT_SCENARIOS.map((s) => [s.name, { revisions: s.revisions, extension: false }] as const),
  ...AUTH_SCENARIOS.map((s) => [s.name, { revisions: s.revisions, extension: s.tier === 'extension' }] as const),
]);
const haveClient = (name: string) => CLIENT_SIDE.has(name);

/** The revisions oldest first: a scenario's window runs from its first revision to its last. */
const TIMELINE = [...SCHEMA_REVISIONS].reverse() as readonly string[];

/**
 * Whether our client scenario applies at `revision` as the official runner reads a scenario's window (cumulative:
 * from the revision it came in until one it is gone from). An extension is off the timeline: no revision selects it. A
 * name we have not is left to our run, which names the nearest.
 */
function appliesAt(name: string, revision: string): boolean {
  const s = CLIENT_SIDE.get(name);
  if (!s) return true;
  const at = s.revisions.map((r) => TIMELINE.indexOf(r));
  const i = TIMELINE.indexOf(revision);
  return !s.extension && Math.min(...at) <= i && i <= Math.max(...at);
}

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
  const common = {
    ...(required && { requirements: required, ...(required.missing.length > 0 && { notHere: required.missing }) }),
    side,
    out,
    ...(outputDir && { outputDir }),
    ...(str('expected-failures') && { expectedFailures: str('expected-failures') }),
  };

  if (side === 'server') {
    // Under a requirement set the whole run goes at its revision: the scored scenarios' checks span most of our
    // areas, and the areas beside them are reported apart.
    const selection = required ? [] : scenarios.length > 0 ? selecting(scenarios) : SERVER_SUITES[suite ?? 'active'];
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
  let names = required ? [...required.scored, ...required.notScored.map((e) => e.scenario)] : scenarios;
  let notHere: Named[] = [];
  if (suite) {
    const official = OFFICIAL_CLIENT_SUITES[suite];
    if (!official) throw unknownSuite(suite, OFFICIAL_CLIENT_SUITES);
    names = official.filter(haveClient);
    notHere = official.filter((n) => !haveClient(n)).map((scenario) => ({ scenario, reason: NO_SCENARIO }));
  } else if (names.length === 0 && requirements === undefined)
    throw new UsageError('client: either --scenario or --suite is required (mcp-conformance list --client lists them)');
  // At --spec-version the official runner drops from a suite what does not apply there, and skips a named scenario
  // that does not unless --force; a set runs what it names. Ours run at the revisions they have, so --force runs such
  // a scenario at those.
  const off = revision && !required ? names.filter((n) => !appliesAt(n, revision)) : [];
  const forced = values.force === true && !suite && off.length > 0;
  if (!forced) names = names.filter((n) => !off.includes(n));
  const notes = {
    ...(notHere.length > 0 && { notHere }),
    // Some left out of several: said beside the run (all of them: the skip says it).
    ...(off.length > 0 && !forced && names.length > 0 && { notApplicable: off }),
  };
  if (names.length === 0)
    return {
      ...common,
      ...notes,
      argv: [],
      skipped: suite
        ? `nothing to run: the ${suite} suite has no scenario here${revision ? ` at ${revision}` : ''}`
        : `${off.join(', ')} does not apply at ${revision} (--force runs it at the revisions it has)`,
    };
  return {
    ...common,
    ...notes,
    argv: [
      ...names.flatMap((n) => ['--scenario', n]),
      ...(revision && !forced ? ['--revision', revision] : []),
      ...(timeout !== undefined ? ['--scenario-timeout', String(timeout)] : []),
      '--out',
      out,
      '--',
      ...clientCommandOf(command),
    ],
  };
}
