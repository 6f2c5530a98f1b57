import { globToRegExp } from '../suite/glob.js';
import { readYamlFile, type YamlFile, type YamlPath } from '../config/yaml-file.js';
import type { CheckResult } from '../schema/generated/report.js';
import { isObject } from '../json.js';
import { SCHEMA_REVISIONS } from '../schema/revisions.js';
import type { TransportKind } from '../transport/transport.js';

const TRANSPORTS: readonly TransportKind[] = ['stdio', 'http', 'sse'];
const KEYS = ['id', 'reason', 'on', 'message'];

/** One line of the expected-failures file. */
export interface BaselineEntry {
  /** A check id or a glob (`tools/**`, `*` within one segment), as written. */
  pattern: string;
  reason?: string;
  /** The runs it is for (`on:`): revisions, transports or `REVISION/TRANSPORT`; every run when absent. */
  on?: string[];
  /** The failure message it expects (`message:`), as written: a substring, or a /pattern/ with flags. */
  message?: string;
  /** 1-based lines the entry spans in the file. */
  first: number;
  last: number;
  matches(id: string): boolean;
  /** Whether a failure's message is the one `message` expects (always, when it expects none). */
  expects(message: string): boolean;
}

/** Which run a check result comes from: the revision it ran at and the transport it spoke. */
export interface RunContext {
  revision: string;
  transport?: TransportKind;
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
  const extra = Object.keys(item).find((k) => !KEYS.includes(k));
  if (extra) throw file.error([i, extra], `unknown key (expected ${KEYS.join(', ')})`);
  if (!('id' in item)) throw file.error([i], 'missing required key "id"');
  if (typeof item.reason !== 'string' || item.reason.trim() === '') {
    throw file.error('reason' in item ? [i, 'reason'] : [i], 'needs a reason: say why the failure is expected');
  }
  const on = 'on' in item ? runsOf(file, [i, 'on'], item.on) : undefined;
  const message = 'message' in item ? messageOf(file, [i, 'message'], item.message) : undefined;
  return {
    ...entry(file, [i, 'id'], item.id, message?.test),
    ...file.lines([i]),
    reason: item.reason,
    ...(on && { on }),
    ...(message && { message: message.text }),
  };
}

function entry(
  file: YamlFile,
  path: YamlPath,
  id: unknown,
  expects: (message: string) => boolean = () => true,
): BaselineEntry {
  if (typeof id !== 'string' || !PATTERN.test(id))
    throw file.error(path, 'must be a check id or glob, e.g. tools/call/unknown-tool or tools/**');
  const re = globToRegExp(id);
  return { pattern: id, ...file.lines(path), matches: (checkId) => re.test(checkId), expects };
}

/** `on:` one run or a list: `2025-11-25`, `stdio`, or `2025-11-25/stdio`. */
function runsOf(file: YamlFile, path: YamlPath, value: unknown): string[] {
  const runs = Array.isArray(value) ? value : [value];
  runs.forEach((run, i) => {
    const at = Array.isArray(value) ? [...path, i] : path;
    const [first, second, ...more] = typeof run === 'string' ? run.split('/') : [];
    const ok =
      more.length === 0 &&
      (second === undefined ? isRevision(first) || isTransport(first) : isRevision(first) && isTransport(second));
    if (!ok)
      throw file.error(
        at,
        `must be a revision (${SCHEMA_REVISIONS.join(', ')}), a transport (${TRANSPORTS.join(', ')}) or REVISION/TRANSPORT`,
      );
  });
  if (runs.length === 0) throw file.error(path, 'must name at least one run');
  return runs as string[];
}

const isRevision = (s: string | undefined) => s !== undefined && (SCHEMA_REVISIONS as readonly string[]).includes(s);
const isTransport = (s: string | undefined): s is TransportKind =>
  s !== undefined && (TRANSPORTS as readonly string[]).includes(s);

/** `message:` a substring of the failure's message, or a `/pattern/flags` it must match. */
function messageOf(
  file: YamlFile,
  path: YamlPath,
  value: unknown,
): { text: string; test: (message: string) => boolean } {
  if (typeof value !== 'string' || value === '')
    throw file.error(path, 'must be a substring of the failure message, or a /pattern/');
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(value);
  if (!regex) return { text: value, test: (message) => message.includes(value) };
  try {
    const re = new RegExp(regex[1], regex[2]);
    return { text: value, test: (message) => re.test(message) };
  } catch (err) {
    throw file.error(path, `not a valid pattern (${(err as Error).message})`);
  }
}

/** Whether an entry is for a run: it names no run, or one whose revision and transport agree. */
const isFor = (e: BaselineEntry, run: RunContext) =>
  !e.on || e.on.some((on) => on.split('/').every((part) => part === run.revision || part === run.transport));

function unique(file: YamlFile, entries: BaselineEntry[], pathOf: (i: number) => YamlPath): BaselineEntry[] {
  // One id may be listed once per run it names (`on:`), each with its own message.
  const key = (e: BaselineEntry) => JSON.stringify([e.pattern, e.on ?? []]);
  entries.forEach((e, i) => {
    const earlier = entries.findIndex((o) => key(o) === key(e));
    if (earlier < i)
      throw file.error(
        pathOf(i),
        `${e.pattern} is already listed${e.on ? ` for ${e.on.join(', ')}` : ''} at line ${entries[earlier].first}`,
      );
  });
  return entries;
}

/** The entry for this run that lists a check: one naming it exactly, else the first glob that matches. */
export function entryFor(baseline: Baseline, id: string, run: RunContext): BaselineEntry | undefined {
  const entries = baseline.entries.filter((e) => isFor(e, run));
  return entries.find((e) => e.pattern === id) ?? entries.find((e) => e.matches(id));
}

/**
 * Marks every check the baseline lists for this run with its entry; statuses stay as the server earned them. A check
 * that saw only part of the run's traffic (`partial`: a frame rule in a shard) is marked only when it did not pass,
 * since the traffic of other shards may still fail it: its pass here does not make the entry stale. A failure whose
 * message is not the one the entry expects is marked so: it is a new failure behind an old entry.
 */
export function applyBaseline(
  checks: readonly CheckResult[],
  baseline: Baseline,
  run: RunContext,
  partial: (c: CheckResult) => boolean = () => false,
): CheckResult[] {
  return checks.map((c) => {
    const e = entryFor(baseline, c.id, run);
    if (!e || (c.status === 'pass' && partial(c))) return c;
    const differs = (c.status === 'fail' || c.status === 'warn') && !e.expects(c.message);
    const marker = {
      entry: e.pattern,
      ...(e.reason !== undefined && { reason: e.reason }),
      ...(e.message !== undefined && { message: e.message }),
      ...(differs && { messageDiffers: true }),
    };
    return { ...c, baseline: marker };
  });
}
