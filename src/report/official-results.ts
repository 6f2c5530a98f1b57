// The official conformance suite's results layout, written beside our reports so that a CI script written for it
// (one that reads `<output-dir>/*/checks.json`) reads ours unchanged: one folder per scenario, named as the official
// runner names it (`<scenario>-<time>` for a client, `server-<scenario>-<time>` for a server,
// `authorization-server-<scenario>-<time>` for an authorization server), holding its checks in
// the official check shape, and a client scenario's folder the client's stdout.txt and stderr.txt. Our check id,
// requirement and sentence ride in each check's `details`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OFFICIAL_AUTHZ_SCENARIOS } from './official-authz-scenarios.js';
import { officialScenariosOf } from './official-server-scenarios.js';
import type { CheckResult, Status } from '../schema/generated/report.js';
import type { ClientOutput } from '../transport/client-process.js';

/** The official runner's statuses. */
export type OfficialStatus = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';

/** One check as the official suite's checks.json holds it. */
export interface OfficialCheck {
  id: string;
  name: string;
  description: string;
  status: OfficialStatus;
  timestamp: string;
  specReferences: { id: string; url?: string }[];
  details: Record<string, unknown>;
  errorMessage?: string;
}

/** The checks of one scenario (one folder), at the revision they ran at. */
export interface ScenarioResult {
  scenario: string;
  revision?: string;
  checks: OfficialCheck[];
  /** A client scenario's: what the client process wrote. */
  output?: ClientOutput;
}

/** A harness error is no verdict of ours, but the official runner has no such status: it reports a scenario that could not run as a FAILURE. */
const STATUS: Record<Status, OfficialStatus> = {
  pass: 'SUCCESS',
  fail: 'FAILURE',
  warn: 'WARNING',
  skip: 'SKIPPED',
  error: 'FAILURE',
};

/** Our check result in the official shape: the id one kebab-case segment, as official ids are; ours in `details`. */
export function officialCheck(c: CheckResult, timestamp: string, revision?: string): OfficialCheck {
  const failed = c.status === 'fail' || c.status === 'warn' || c.status === 'error';
  return {
    id: c.id.replaceAll('/', '-'),
    name: c.title,
    description: c.requirement.text,
    status: STATUS[c.status],
    timestamp,
    specReferences: [{ id: c.requirement.id, ...(c.requirement.spec && { url: c.requirement.spec }) }],
    details: {
      check: c.id,
      requirement: c.requirement.id,
      level: c.requirement.level,
      status: c.status,
      ...(revision && { revision }),
      message: c.message,
      ...(c.expected !== undefined && { expected: c.expected }),
      ...(c.actual !== undefined && { actual: c.actual }),
      ...(c.baseline && { baseline: c.baseline }),
    },
    ...(failed && { errorMessage: c.message }),
  };
}

/**
 * A server run's checks grouped into scenarios: each of our areas is one (`tools`, `http`, …), then each official
 * scenario that checks here judge (`server-initialize`, …: official-server-scenarios.ts) is one with those checks. A
 * report of several revisions prefixes its areas and ids with the revision (`2026-07-28/tools`): the revision goes
 * apart, the scenario keeps its name.
 */
export function serverScenarios(checks: readonly CheckResult[], timestamp: string): ScenarioResult[] {
  const areas = new Map<string, ScenarioResult>();
  const official = new Map<string, ScenarioResult>();
  const add = (
    groups: Map<string, ScenarioResult>,
    scenario: string,
    revision: string | undefined,
    c: OfficialCheck,
  ) => {
    const key = `${revision ?? ''} ${scenario}`;
    const group = groups.get(key) ?? { scenario, ...(revision && { revision }), checks: [] };
    group.checks.push(c);
    groups.set(key, group);
  };
  for (const c of checks) {
    const [first, ...rest] = c.area.split('/');
    const revision = /^\d{4}-\d{2}-\d{2}$/.test(first) && rest.length > 0 ? first : undefined;
    const id = revision ? c.id.slice(revision.length + 1) : c.id;
    const check = officialCheck({ ...c, id }, timestamp, revision);
    add(areas, revision ? rest.join('/') : c.area, revision, check);
    for (const scenario of officialScenariosOf(id)) add(official, scenario, revision, check);
  }
  // An official scenario named as one of our areas (`ping`) is that area's folder already.
  const areaNames = new Set([...areas.values()].map((g) => g.scenario));
  return [...areas.values(), ...[...official.values()].filter((g) => !areaNames.has(g.scenario))];
}

/** An authorization run's checks grouped into the official scenarios that have checks among them. */
export function authzScenarios(checks: readonly CheckResult[], timestamp: string): ScenarioResult[] {
  return Object.entries(OFFICIAL_AUTHZ_SCENARIOS).flatMap(([scenario, ids]) => {
    const judged = checks.filter((c) => ids.includes(c.id)).map((c) => officialCheck(c, timestamp));
    return judged.length > 0 ? [{ scenario, checks: judged }] : [];
  });
}

/** The official runner's folder prefix for each side's scenarios. */
const PREFIX = { client: '', server: 'server-', authorization: 'authorization-server-' } as const;

/** The official runner's folder time: an ISO time with `:` and `.` made `-`. */
const folderTime = (ms: number) => new Date(ms).toISOString().replace(/[:.]/g, '-');

/**
 * Writes one folder per scenario under `dir` with its checks.json (and a client's stdout.txt and stderr.txt, as the
 * official runner writes them beside it); returns the folders. Each folder's time is a millisecond later than the one
 * before, so that a scenario run at two revisions gets two folders, as two official runs would.
 */
export async function writeOfficialResults(
  dir: string,
  side: keyof typeof PREFIX,
  scenarios: readonly ScenarioResult[],
  startedAt = Date.now(),
): Promise<string[]> {
  const folders: string[] = [];
  for (const [i, s] of scenarios.entries()) {
    const name = `${PREFIX[side]}${s.scenario}-${folderTime(startedAt + i)}`;
    const folder = join(dir, name);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'checks.json'), JSON.stringify(s.checks, null, 2));
    if (s.output) {
      await writeFile(join(folder, 'stdout.txt'), s.output.stdout);
      await writeFile(join(folder, 'stderr.txt'), s.output.stderr);
    }
    folders.push(folder);
  }
  return folders;
}
