// The official conformance suite's expected-failures file, as its runner reads it after its `server` and `client`
// subcommands: `server:` and `client:` lists of scenario names, nothing per check. A listed scenario that fails (a
// FAILURE or a WARNING among its checks) is expected; one that passes is stale; an unlisted one that fails is
// unexpected; either of the last two exits 1. Our own list of `{id, reason}` entries is read by baseline.ts instead.
import { readYamlFile } from '../config/yaml-file.js';
import { isObject } from '../json.js';
import type { ScenarioResult } from '../report/official-results.js';

export interface OfficialBaseline {
  file: string;
  server: string[];
  client: string[];
}

export interface OfficialVerdict {
  expected: string[];
  stale: string[];
  unexpected: string[];
  exitCode: 0 | 1;
}

/** The file in the official shape (a mapping of `server`/`client` lists), or undefined when it is our list of entries. */
export async function loadOfficialBaseline(path: string): Promise<OfficialBaseline | undefined> {
  const yaml = await readYamlFile(path);
  const value = yaml.value ?? {};
  if (Array.isArray(value)) return undefined;
  if (!isObject(value)) throw yaml.error([], "must be the official suite's mapping of server: and client: lists");
  const extra = Object.keys(value).find((k) => k !== 'server' && k !== 'client');
  if (extra) throw yaml.error([extra], 'unknown key (expected server and client)');
  const list = (key: 'server' | 'client'): string[] => {
    const names = value[key] ?? [];
    if (!Array.isArray(names)) throw yaml.error([key], 'must be a list of scenario names');
    return names.map(String);
  };
  return { file: yaml.file, server: list('server'), client: list('client') };
}

/**
 * The official verdict on scenarios. A scenario run at several revisions (several results of one name) fails when
 * any of its runs does. Entries naming a scenario this run did not have are left alone, as the official runner does.
 */
export function judgeScenarios(results: readonly ScenarioResult[], listed: readonly string[]): OfficialVerdict {
  const failed = new Map<string, boolean>();
  for (const r of results) {
    const bad = r.checks.some((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    failed.set(r.scenario, (failed.get(r.scenario) ?? false) || bad);
  }
  const expected: string[] = [];
  const stale: string[] = [];
  const unexpected: string[] = [];
  for (const [scenario, bad] of failed) {
    const isListed = listed.includes(scenario);
    if (bad && isListed) expected.push(scenario);
    else if (bad) unexpected.push(scenario);
    else if (isListed) stale.push(scenario);
  }
  return { expected, stale, unexpected, exitCode: stale.length > 0 || unexpected.length > 0 ? 1 : 0 };
}

/** The verdict's lines for the console. */
export function renderVerdict(v: OfficialVerdict, file: string): string {
  const section = (title: string, names: string[], mark: string) =>
    names.length > 0 ? `${title}\n${names.map((n) => `  ${mark} ${n}`).join('\n')}\n` : '';
  const last =
    v.exitCode === 0
      ? `baseline    ${file}: every failure is expected\n`
      : `baseline    ${file}: ${[
          v.stale.length > 0 && `${v.stale.length} stale (now passing: remove them)`,
          v.unexpected.length > 0 && `${v.unexpected.length} unexpected failure(s) (not listed)`,
        ]
          .filter(Boolean)
          .join(', ')}\n`;
  return `\n${section('Expected failures (listed):', v.expected, '~')}${section('Stale entries (now passing):', v.stale, '✓')}${section('Unexpected failures (not listed):', v.unexpected, '✗')}${last}`;
}
