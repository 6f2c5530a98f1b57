import { readdir, readFile } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { isExpectedFailure } from '../../baseline/status.js';
import type { CheckResult, Report, Status } from '../../schema/generated/report.js';
import type {
  Counts,
  Matrix,
  MatrixCell,
  MatrixColumn,
  MatrixRow,
  MatrixServerRun,
} from '../../schema/generated/matrix.js';
import { TOOL } from '../../version.js';
import { STATUSES, areaOf, summarize, verdict } from '../summary.js';
import { bounded, visible } from '../text.js';

/**
 * How one server's run ended, as the matrix saw it: `<folder>/matrix-run.json`, written by the matrix's runs
 * (src/run/matrix.ts) and read back here when the matrix is built.
 */
export interface ServerOutcome {
  name: string;
  /** A client entry's run (`mcp-conformance client`) or an authorization server's; absent for a server. */
  side?: 'client' | 'authorization';
  labels?: Record<string, string>;
  exitCode?: number;
  /** The run overran its budget: it was told to stop (and killed if it did not). */
  timedOut: boolean;
  durationMs: number;
  /** Why the run may have no report: it could not start, or the last lines it printed. */
  reason?: string;
}

export const OUTCOME_FILE = 'matrix-run.json';

/** A folder given to the matrix is not a server's report folder. */
export class MatrixInputError extends Error {}

const MAX_MESSAGE = 300;
/** Statuses that are a verdict on the server; a skip is not, so it neither makes nor breaks a majority. */
const JUDGED = new Set<Status>(['pass', 'fail', 'warn', 'error']);

interface RevisionRun {
  revision: string;
  folder: string;
  report: Report;
}

interface ServerFolder {
  folder: string;
  outcome?: ServerOutcome;
  runs: RevisionRun[];
  /** Why a report that is there could not be read. */
  unreadable?: string;
}

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, 'utf8')) as unknown;
}

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** The report.json in `dir`, undefined when there is none; a file that is no report throws a MatrixInputError. */
async function readReport(dir: string): Promise<Report | undefined> {
  let value: unknown;
  try {
    value = await readJson(join(dir, 'report.json'));
  } catch (err) {
    if (missing(err)) return undefined;
    throw new MatrixInputError(
      `${visible(join(dir, 'report.json'))}: not JSON (${(err as Error).message.split('\n')[0]})`,
    );
  }
  const r = value as Partial<Report> | null;
  const ok =
    typeof r === 'object' &&
    r !== null &&
    Array.isArray(r.checks) &&
    r.checks.every(
      (c) => typeof c?.id === 'string' && STATUSES.includes(c.status) && typeof c.requirement === 'object',
    );
  if (!ok) throw new MatrixInputError(`${visible(join(dir, 'report.json'))}: not a report.json of mcp-conformance`);
  return r as Report;
}

/**
 * One server's folder as a run of the matrix or the CLI left it: its revision runs (each in `<revision>/` when there
 * were several, else the folder's own report.json) and, when the matrix ran it, how it ended.
 */
async function readServerFolder(folder: string): Promise<ServerFolder> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (err) {
    throw new MatrixInputError(
      `${visible(folder)}: cannot read this folder (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  const outcome = entries.some((e) => e.name === OUTCOME_FILE)
    ? ((await readJson(join(folder, OUTCOME_FILE)).catch(() => undefined)) as ServerOutcome | undefined)
    : undefined;
  const runs: RevisionRun[] = [];
  try {
    // Revision folders sort newest first, the order a run takes them in.
    for (const sub of entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort()
      .reverse()) {
      const report = await readReport(join(folder, sub));
      if (report) runs.push({ revision: sub, folder: join(folder, sub), report });
    }
    if (runs.length === 0) {
      const report = await readReport(folder);
      if (report) runs.push({ revision: revisionOf(report), folder, report });
    }
  } catch (err) {
    if (!(err instanceof MatrixInputError) || !outcome) throw err;
    return { folder, outcome, runs: [], unreadable: err.message };
  }
  if (runs.length === 0 && !outcome)
    throw new MatrixInputError(
      `${visible(folder)}: no report.json here (nor in a revision folder), and no ${OUTCOME_FILE}`,
    );
  return { folder, outcome, runs };
}

/** A client's run spans the revisions its scenarios ran at (newest first); a server's, the one it negotiated. */
function revisionOf(report: Report): string {
  if (report.client) {
    const revisions = [...new Set(report.client.scenarios.map((s) => s.revision))].sort().reverse();
    return revisions.join(' + ') || report.client.protocolVersion || '-';
  }
  return report.server?.protocolVersion ?? '-';
}

/** An authorization server's report: every check of it judges the authorization server (`mcp-conformance authorization`). */
const isAuthorization = (report: Report) =>
  !report.server && !report.client && report.checks.length > 0 && report.checks.every((c) => areaOf(c) === 'authz');

/** What a folder's runs judged: the side its runs say, else the one the matrix recorded (a run without a report). */
function sideOf(f: ServerFolder): NonNullable<MatrixServerRun['side']> {
  if (f.runs.some((r) => r.report.client)) return 'client';
  if (f.runs.some((r) => isAuthorization(r.report))) return 'authorization';
  return f.outcome?.side ?? 'server';
}

/** Who a report is of, as it named itself: a client's clientInfo, or a server's serverInfo. */
function infoOf(report: Report): Pick<MatrixColumn, 'clientInfo' | 'serverInfo'> | undefined {
  const s = report.client ?? report.server;
  if (!s) return undefined;
  const info = {
    ...(s.name !== undefined && { name: s.name }),
    ...(s.version !== undefined && { version: s.version }),
    ...(s.protocolVersion !== undefined && { protocolVersion: s.protocolVersion }),
  };
  return report.client ? { clientInfo: info } : { serverInfo: info };
}

/** A run that was stopped before every check ran has not passed: what it did not run may fail. */
const judged = (v: ReturnType<typeof verdict>, stopped: boolean) => (v === 'pass' && stopped ? 'error' : v);

/** The path from the matrix's folder to `to`, with forward slashes: a link in matrix.html. */
const linkPath = (from: string, to: string) => relative(from, to).split(sep).join('/') || '.';

const ZERO: Counts = { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };

/** Reads the server folders (in the order given) and builds the matrix whose links are relative to `outDir`. */
export async function buildMatrix(folders: readonly string[], outDir: string): Promise<Matrix> {
  return matrixOf(await Promise.all(folders.map(readServerFolder)), outDir);
}

function matrixOf(folders: readonly ServerFolder[], outDir: string): Matrix {
  const servers: MatrixServerRun[] = [];
  const columns: MatrixColumn[] = [];
  const byColumn: CheckResult[][] = [];
  folders.forEach((f, i) => {
    const all = f.runs.flatMap((r) => r.report.checks);
    const o = f.outcome;
    const reason =
      f.unreadable ??
      o?.reason ??
      (f.runs.some((r) => r.report.interrupted) ? 'the run was interrupted before every check ran' : undefined);
    const target = f.runs[0]?.report.target;
    servers.push({
      name: o?.name ?? basename(f.folder),
      side: sideOf(f),
      ...(target?.description && { command: target.description }),
      folder: linkPath(outDir, f.folder),
      verdict:
        f.runs.length === 0
          ? 'no-report'
          : judged(verdict({ checks: all }), o?.timedOut === true || f.runs.some((r) => r.report.interrupted)),
      summary: summarize(all),
      ...(o?.durationMs !== undefined && { durationMs: o.durationMs }),
      ...(o?.exitCode !== undefined && { exitCode: o.exitCode }),
      ...(o?.timedOut && { timedOut: true }),
      ...(reason && { reason }),
      ...(o?.labels && { labels: o.labels }),
    });
    if (f.runs.length === 0) {
      columns.push({
        server: i,
        revision: '-',
        folder: linkPath(outDir, f.folder),
        verdict: 'no-report',
        summary: ZERO,
        differs: 0,
      });
      byColumn.push([]);
    }
    for (const run of f.runs) {
      columns.push({
        server: i,
        revision: run.revision,
        folder: linkPath(outDir, run.folder),
        verdict: judged(verdict(run.report), run.report.interrupted === true),
        summary: summarize(run.report.checks),
        durationMs: run.report.durationMs,
        ...(run.report.interrupted && { interrupted: true }),
        ...infoOf(run.report),
        differs: 0,
      });
      byColumn.push(run.report.checks);
    }
  });
  const rows = rowsOf(byColumn);
  rows.forEach((row) => row.cells.forEach((cell, c) => cell?.differs && columns[c].differs++));
  return { tool: TOOL, servers, columns, rows };
}

/** One row per check id, grouped by area in order of first appearance; each with its cells and its majority. */
function rowsOf(byColumn: readonly CheckResult[][]): MatrixRow[] {
  const areas = new Map<string, Map<string, MatrixRow>>();
  byColumn.forEach((checks, c) => {
    for (const check of checks) {
      const area = areaOf(check);
      if (!areas.has(area)) areas.set(area, new Map());
      const rows = areas.get(area)!;
      let row = rows.get(check.id);
      if (!row) {
        row = { id: check.id, area, title: check.title, level: check.level, cells: byColumn.map(() => null) };
        rows.set(check.id, row);
      }
      row.cells[c] = cellOf(check);
    }
  });
  const rows = [...areas.values()].flatMap((r) => [...r.values()]);
  for (const row of rows) {
    const judged = row.cells.filter((cell): cell is MatrixCell => cell !== null && JUDGED.has(cell.status));
    const counts = new Map<Status, number>();
    for (const cell of judged) counts.set(cell.status, (counts.get(cell.status) ?? 0) + 1);
    const top = [...counts].find(([, n]) => n * 2 > judged.length)?.[0];
    if (top === undefined) continue;
    row.majority = top;
    for (const cell of judged) if (cell.status !== top) cell.differs = true;
  }
  return rows;
}

/** A cell: its status, and for what needs explaining, the message and (fail, warn) the requirement behind it. */
function cellOf(check: CheckResult): MatrixCell {
  const { status } = check;
  if (status === 'pass' || status === 'skip') return { status };
  const { id, level, spec, text } = check.requirement;
  const note = isExpectedFailure(check) ? ' (an expected failure)' : '';
  return {
    status,
    message: bounded(check.message, MAX_MESSAGE) + note,
    ...((status === 'fail' || status === 'warn') && { requirement: { id, level, spec, text } }),
  };
}

/**
 * An entry as the matrix names it, the same for every side: what the server or client called itself (serverInfo,
 * clientInfo) and what was run (its command or target); an authorization server by its issuer, which its run names.
 */
export function entryName(matrix: Matrix, entry: MatrixServerRun): string {
  if (entry.side === 'authorization') return entry.command ?? 'authorization server';
  const column = matrix.columns.find((c) => matrix.servers[c.server] === entry);
  const side = entry.side ?? 'server';
  const info = side === 'client' ? column?.clientInfo : column?.serverInfo;
  const name = info?.name !== undefined ? [info.name, info.version].filter(Boolean).join(' ') : `no ${side}Info`;
  return `${side} ${name}${entry.command ? ` · ${entry.command}` : ''}`;
}
