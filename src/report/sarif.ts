import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { failsDifferently, isExpectedFailure, isStale, staleAdvice } from '../baseline/status.js';
import type { CheckResult, Level, Report } from '../schema/generated/report.js';
import { safeHref } from './html/markup.js';
import { peerOf } from './summary.js';
import { bounded } from './text.js';
import { triad } from './triad.js';

/** The SARIF 2.1.0 schema a reader may check the file against (the OASIS one, as SchemaStore serves it). */
const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** A requirement's RFC 2119 level as SARIF's: a broken MUST is an error, a SHOULD a warning, a MAY a note. */
const LEVEL: Record<Level, 'error' | 'warning' | 'note'> = { MUST: 'error', SHOULD: 'warning', MAY: 'note' };

/** Characters of a result's message: the triad without the transcript, which index.html holds. */
const MAX_MESSAGE = 4000;

/**
 * report.sarif (SARIF 2.1.0), for code scanning and SARIF viewers: one rule per check (its id, level, requirement and
 * spec link), one result per check that fails the run or warns (an expected failure is a suppressed result), the
 * server as the one artifact. Harness errors are no finding about the server: they are the invocation's notifications.
 */
export function renderSarif(report: Report): string {
  const rules = report.checks.map(rule);
  const index = new Map(report.checks.map((c, i) => [c.id, i]));
  const uri = serverUri(report);
  const results = report.checks
    .filter((c) => c.status === 'fail' || c.status === 'warn' || isStale(c))
    .map((c) => result(c, index.get(c.id)!, uri));
  const errors = report.checks.filter((c) => c.status === 'error');
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: report.tool.name, version: report.tool.version, rules } },
        ...(report.runId && {
          automationDetails: { guid: guidOr(report.runId), id: `mcp-conformance/${report.runId}` },
        }),
        invocations: [
          {
            executionSuccessful: errors.length === 0 && !report.interrupted,
            startTimeUtc: report.startedAt,
            endTimeUtc: new Date(Date.parse(report.startedAt) + report.durationMs).toISOString(),
            toolExecutionNotifications: errors.map((c) => ({
              level: 'error',
              message: { text: bounded(`${c.id}: ${c.message}`, MAX_MESSAGE) },
              associatedRule: { id: c.id, index: index.get(c.id)! },
            })),
          },
        ],
        artifacts: [{ location: { uri }, description: { text: serverText(report) } }],
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function rule(c: CheckResult) {
  const r = c.requirement;
  const href = safeHref(r.spec);
  return {
    id: c.id,
    shortDescription: { text: c.title },
    fullDescription: { text: r.text },
    ...(href && { helpUri: href }),
    help: { text: `${r.id} (${r.level}): ${r.text}${href ? ` ${href}` : ''}` },
    defaultConfiguration: { level: LEVEL[r.level] },
    properties: { requirement: r.id, level: r.level, tags: [c.area, r.level] },
  };
}

function result(c: CheckResult, ruleIndex: number, uri: string) {
  const sections = triad(c, { maxJson: 1000 }).filter((s) => s.label !== 'transcript');
  const text = isStale(c)
    ? `${c.id} ${staleAdvice(c)}`
    : sections.map((s) => `${s.label}: ${s.lines.join('\n')}`).join('\n');
  return {
    ruleId: c.id,
    ruleIndex,
    // A check that fails the run is an error whatever its requirement's level (a warning under --strict, a stale entry).
    level: c.status === 'warn' && !failsDifferently(c) ? 'warning' : 'error',
    message: { text: bounded(text, MAX_MESSAGE) },
    locations: [{ physicalLocation: { artifactLocation: { uri, index: 0 } } }],
    ...(isExpectedFailure(c) && {
      suppressions: [
        {
          kind: 'external',
          justification: c.baseline!.reason ?? `listed as ${c.baseline!.entry} in the expected-failures file`,
        },
      ],
    }),
    properties: { status: c.status, ...(c.baseline && { baseline: c.baseline }) },
  };
}

/** The server as a URI: its URL, a file the user named, or else the command it was started with. */
function serverUri(report: Report): string {
  const { url, description, command, args } = report.target;
  if (url !== undefined && safeHref(url)) return url;
  const path = /\s/.test(description) ? (args?.at(-1) ?? command ?? 'server') : description;
  return isAbsolute(path) ? pathToFileURL(path).href : encodeURI(path.replace(/\\/g, '/'));
}

function serverText(report: Report): string {
  const { target } = report;
  const peer = peerOf(report);
  if (peer.protocolVersion === undefined) return `${target.description} (not initialized)`;
  return `${peer.name ?? `unnamed ${peer.role}`}, revision ${peer.protocolVersion} (${target.description})`;
}

/** A run id that is a GUID (as a run writes it) is SARIF's automation guid; any other is left out of that field. */
const guidOr = (id: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ? id : undefined;
