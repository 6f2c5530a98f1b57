import { globToRegExp } from '../suite/glob.js';
import { readYamlFile, type YamlFile, type YamlPath } from '../config/yaml-file.js';
import type { CheckResult } from '../schema/generated/report.js';
import { isObject } from '../json.js';

/** One line of the expected-failures file. */
export interface BaselineEntry {
  /** A check id or a glob (`tools/**`, `*` within one segment), as written. */
  pattern: string;
  reason?: string;
  /** 1-based lines the entry spans in the file. */
  first: number;
  last: number;
  matches(id: string): boolean;
}

/** An expected-failures file. */
export interface Baseline {
  /** The path as shown in messages. */
  file: string;
  /** `list`: `- {id, reason}` entries; `server`: the official conformance suite's `server: [ids]`. */
  shape: 'list' | 'server';
  entries: BaselineEntry[];
  /** The file's text, line by line, to quote the lines to remove. */
  lines: string[];
}

/** Check ids and globs: lowercase segments of letters, digits, `-` and `*` (the official suite's ids are one segment). */
const PATTERN = /^[a-z0-9*-]+(\/[a-z0-9*-]+)*$/;
const SHAPES = 'a list of {id, reason} entries, or the official suite\'s "server: [ids]"';

/** Reads and checks an expected-failures file; every problem is one ConfigError naming file, line and field. */
export async function loadBaseline(path: string): Promise<Baseline> {
  const yaml = await readYamlFile(path);
  const value = yaml.value ?? [];
  const lines = yaml.text.split(/\r\n|\r|\n/);
  if (Array.isArray(value)) {
    const entries = value.map((item, i) => listEntry(yaml, item, i));
    return { file: yaml.file, shape: 'list', lines, entries: unique(yaml, entries, (i) => [i, 'id']) };
  }
  if (isObject(value) && 'server' in value) {
    const extra = Object.keys(value).find((k) => k !== 'server' && k !== 'client');
    if (extra) throw yaml.error([extra], 'unknown key (expected server, and client which is ignored)');
    if (!Array.isArray(value.server)) throw yaml.error(['server'], 'must be a list of check ids');
    const entries = value.server.map((id, i) => entry(yaml, ['server', i], id));
    return { file: yaml.file, shape: 'server', lines, entries: unique(yaml, entries, (i) => ['server', i]) };
  }
  throw yaml.error([], `must be ${SHAPES}`);
}

function listEntry(file: YamlFile, item: unknown, i: number): BaselineEntry {
  if (!isObject(item)) throw file.error([i], 'must be a mapping with id and reason');
  const extra = Object.keys(item).find((k) => k !== 'id' && k !== 'reason');
  if (extra) throw file.error([i, extra], 'unknown key (expected id, reason)');
  if (!('id' in item)) throw file.error([i], 'missing required key "id"');
  if (typeof item.reason !== 'string' || item.reason.trim() === '') {
    throw file.error('reason' in item ? [i, 'reason'] : [i], 'needs a reason: say why the failure is expected');
  }
  return { ...entry(file, [i, 'id'], item.id), ...file.lines([i]), reason: item.reason };
}

function entry(file: YamlFile, path: YamlPath, id: unknown): BaselineEntry {
  if (typeof id !== 'string' || !PATTERN.test(id)) throw file.error(path, 'must be a check id or glob, e.g. tools/call/unknown-tool or tools/**');
  const re = globToRegExp(id);
  return { pattern: id, ...file.lines(path), matches: (checkId) => re.test(checkId) };
}

function unique(file: YamlFile, entries: BaselineEntry[], pathOf: (i: number) => YamlPath): BaselineEntry[] {
  entries.forEach((e, i) => {
    const earlier = entries.findIndex((o) => o.pattern === e.pattern);
    if (earlier < i) throw file.error(pathOf(i), `${e.pattern} is already listed at line ${entries[earlier].first}`);
  });
  return entries;
}


/** The entry that lists a check: one naming it exactly, else the first glob that matches. */
function entryFor(baseline: Baseline, id: string): BaselineEntry | undefined {
  return baseline.entries.find((e) => e.pattern === id) ?? baseline.entries.find((e) => e.matches(id));
}

/**
 * Marks every check the baseline lists with its entry; statuses stay as the server earned them. A check that saw only
 * part of the run's traffic (`partial`: a frame rule in a shard) is marked only when it did not pass, since the
 * traffic of other shards may still fail it: its pass here does not make the entry stale.
 */
export function applyBaseline(checks: readonly CheckResult[], baseline: Baseline, partial: (c: CheckResult) => boolean = () => false): CheckResult[] {
  return checks.map((c) => {
    const e = entryFor(baseline, c.id);
    if (!e || (c.status === 'pass' && partial(c))) return c;
    return { ...c, baseline: { entry: e.pattern, ...(e.reason !== undefined && { reason: e.reason }) } };
  });
}
