import { isExpectedFailure, isStale, staleAdvice } from '../baseline/status.js';
import type { CheckResult, Report, Server } from '../schema/generated/report.js';
import { PAGES } from './html/assets.js';
import { jsonDiff } from '../json-diff.js';
import { html, pageHead, raw, safeHref, scriptJson, type Fragment, type Html } from './html/markup.js';
import { writeReportFile } from './output.js';
import { STATUSES, areaOf, groupByArea, peerOf, summarize, verdict } from './summary.js';
import { bounded, duration, toJson } from './text.js';
import { type Side, acrossSides, areaIn, byRevision, sidesOf, unprefixed } from './side-by-side.js';
import { formatEntry } from './transcript-format.js';
import { triad } from './triad.js';
import { startsCount } from './starts.js';

/** Bounds that keep one check readable and the page a reasonable size; transcript frames are capped when recorded. */
const LIMITS = { indent: 2, maxJson: 20_000 };
const MAX_SUMMARY = 200;
const MAX_DIFF_VALUE = 300;
const MAX_DIFFERENCES = 50;

const VERDICT: Record<ReturnType<typeof verdict>, string> = { pass: 'PASS', fail: 'FAIL', error: 'ERROR' };
const COUNT_NAMES = {
  tools: 'tool',
  resources: 'resource',
  resourceTemplates: 'resource template',
  prompts: 'prompt',
} as const;
const NEWLINE = raw('\n');
/** Failures and errors are what a reader came for: their details start open. */
const OPEN = new Set<CheckResult['status']>(['fail', 'error']);

/** Lines joined by line breaks; each line is escaped on its own, so a break is never mistaken for an unsafe character. */
const lines = (text: readonly string[]): Fragment => text.map((line, i) => (i === 0 ? line : [NEWLINE, line]));

/**
 * `reports/index.html`: one self-contained page (no network) with the run's facts and totals, a requirement
 * matrix by area with filters, and for every check the requirement, message, expected vs actual with a
 * structural diff, and the transcript. Every string from the report is escaped by the `html` template.
 * Checks are `<details id="check-<id>">`, so the page works without script and links can point at a check.
 *
 * A report of runs side by side (a dual-era server's revisions) reads as one server: the server and target named
 * once (each run's where they differ), the runs listed with their verdicts, and a matrix of one row per area with
 * a column per run; the filters gain a switch between the runs.
 */
export function renderHtml(report: Report): string {
  const sides = sidesOf(report);
  const groups = [...groupByArea(report.checks)];
  const areas = sides ? areasOf(sides) : groups.map(([area]) => area);
  const index = new Map(report.checks.map((check, i) => [check, i]));
  const sideOf = new Map(sides?.flatMap((side, i) => side.checks.map((c) => [c, i] as const)));
  // What the filter script needs, by position: no server string has to be compared in the page.
  const data = {
    checks: report.checks.map((c) => {
      const i = sideOf.get(c);
      return sides
        ? { status: c.status, area: i === undefined ? -1 : areas.indexOf(areaIn(sides[i], c)), era: i ?? -1 }
        : { status: c.status, area: areas.indexOf(areaOf(c)) };
    }),
  };
  const result = verdict(report);
  const name = sides ? sidesName(sides) : report.server?.title || report.server?.name || report.target.description;
  const page = PAGES[sides ? 'sides' : 'run'];

  const runId = report.runId ? html`<meta name="mcp-conformance-run-id" content="${report.runId}">\n` : '';
  return html`${pageHead(page.csp, page.style, html`${VERDICT[result]} · ${name} · MCP conformance`, runId)}
<body>
<header>
<h1>${name} <span class="verdict s-${result}">${VERDICT[result]}</span></h1>${
    report.criticalPath &&
    html`
<p class="meta" id="critical-path">Where the time went: ${report.criticalPath.line}${startsCount(report) && ` · ${startsCount(report)}`}</p>`
  }
${facts(report, sides)}
${report.interrupted && html`<p class="notice">The run was interrupted before every check ran.</p>`}
</header>
${totals(report.checks)}
<section id="matrix">
<h2>Requirement matrix</h2>
${filters(report.checks, areas, sides)}
${sides ? sidesMatrix(sides, index) : matrix(groups, index)}
</section>
<section id="checks">
<h2>Checks</h2>
${groups.map(
  ([area, checks]) => html`<section data-group>
<h3>${area} <span class="meta">${counts(checks)}</span></h3>
${checks.map((c) => checkDetails(c, index.get(c)!))}</section>
`,
)}</section>
<footer>Rendered by ${report.tool.name} ${report.tool.version} from its report.json. Links to a check: <code>index.html#check-&lt;id&gt;</code>.</footer>
<script type="application/json" id="report-data">${scriptJson(data)}</script>
<script>${raw(page.script)}</script>
</body>
</html>
`.value;
}

/** Write `outDir/index.html`; returns its path. */
export function writeHtmlReport(report: Report, outDir: string): Promise<string> {
  return writeReportFile(outDir, 'index.html', renderHtml(report));
}

const row = (label: string, value: Fragment) => html`<dt>${label}</dt><dd>${value}</dd>`;

/** `name version (title)`, `no serverInfo`, or `none recorded` when the server never initialized. */
const identityOf = (server: Server | undefined): string =>
  server
    ? [server.name, server.version].filter(Boolean).join(' ') + (server.title ? ` (${server.title})` : '') ||
      'no serverInfo'
    : 'none recorded';

const capabilitiesOf = (server: Server): string => Object.keys(server.capabilities).join(', ') || 'none';

/** `3 tools · 1 resource`: what discovery listed; empty when it listed nothing. */
const discoveredOf = (server: Server | undefined): string =>
  (Object.keys(COUNT_NAMES) as (keyof typeof COUNT_NAMES)[])
    .flatMap((k) => {
      const n = server?.counts?.[k];
      return n === undefined ? [] : [`${n} ${COUNT_NAMES[k]}${n === 1 ? '' : 's'}`];
    })
    .join(' · ');

function facts(report: Report, sides: readonly Side[] | undefined): Html {
  const { server } = report;
  const discovered = discoveredOf(server);
  const peer = peerOf(report);
  const own = () => html`${row('Target', html`<code>${report.target.description}</code>`)}
${report.client ? row('Client', peer.name ?? 'no clientInfo') : row('Server', identityOf(server))}
${row('Revision', peer.protocolVersion ?? '—')}
${peer.capabilities && row('Capabilities', Object.keys(peer.capabilities).join(', ') || 'none')}
${discovered && row('Discovered', discovered)}`;
  return html`<dl class="facts">
${sides ? sidesFacts(sides) : own()}
${row('Started', report.startedAt)}
${row('Duration', duration(report.durationMs))}
${report.seed !== undefined && row('Seed', `${report.seed} (--seed ${report.seed} replays the generated checks)`)}
${report.strict && row('Mode', 'strict: SHOULD violations fail')}
</dl>`;
}

function totals(checks: readonly CheckResult[]): Html {
  const summary = summarize(checks);
  return html`<ul class="totals">${STATUSES.map((s) => html`<li class="s-${s}"><b>${summary[s]}</b>${s}</li>`)}</ul>`;
}

/** `3 pass · 1 fail`: the non-zero counts of a group. */
function counts(checks: readonly CheckResult[]): string {
  const summary = summarize(checks);
  return STATUSES.filter((s) => summary[s] > 0)
    .map((s) => `${summary[s]} ${s}`)
    .join(' · ');
}

/** Filter buttons, hidden until the script shows them (they do nothing without it). `""` means all. */
function filters(checks: readonly CheckResult[], areas: readonly string[], sides: readonly Side[] | undefined): Html {
  const summary = summarize(checks);
  const button = (filter: 'status' | 'area' | 'era', value: string, label: Fragment) =>
    html`<button type="button" data-filter="${filter}" value="${value}" aria-pressed="false">${label}</button>`;
  const runs =
    sides &&
    html`<div><span>${byRevision(sides) ? 'Revision' : 'Run'}</span>${button('era', '', 'all')}${sides.map((s, i) => button('era', String(i), s.label))}</div>
`;
  return html`<div class="filters" id="filters" hidden>
<div><span>Status</span>${button('status', '', `all ${checks.length}`)}${STATUSES.map((s) => button('status', s, `${s} ${summary[s]}`))}</div>
<div><span>Area</span>${button('area', '', 'all')}${areas.map((area, i) => button('area', String(i), area))}</div>
${runs}</div>`;
}

/** The matrix of one run: a row per area, its counts, and a cell per check. */
function matrix(groups: readonly [string, CheckResult[]][], index: ReadonlyMap<CheckResult, number>): Html {
  return html`<table class="matrix"><tbody>
${groups.map(
  ([
    area,
    checks,
  ]) => html`<tr data-group><th scope="row">${area}</th><td class="counts">${counts(checks)}</td><td><div class="cells">${checks.map((c) => cell(c, index.get(c)!))}</div></td></tr>
`,
)}</tbody></table>`;
}

/**
 * A matrix cell: the check's id without its area, coloured by status, linking to its details. `differs` says how
 * the same check fared in the other runs side by side, when that tells a finding apart (marked ≠).
 */
function cell(check: CheckResult, i: number, differs?: string): Html {
  const area = areaOf(check);
  const short = check.id.startsWith(`${area}/`) ? check.id.slice(area.length + 1) : check.id;
  return html`<a class="cell s-${check.status}${differs && ' differs'}" href="#check-${check.id}" data-item="${i}" title="${check.id} · ${check.status}: ${check.title}${differs && `; ${differs}`}">${short}</a>`;
}

/** The areas of runs side by side, as each run names them (without its prefix), in order of first appearance. */
const areasOf = (sides: readonly Side[]): string[] => [
  ...new Set(sides.flatMap((side) => side.checks.map((c) => areaIn(side, c)))),
];

/** The server's name once, or each distinct one (`a / b`) where the runs' servers differ; the targets when none initialized. */
function sidesName(sides: readonly Side[]): string {
  const names = sides
    .flatMap((s) => (s.run.server ? [s.run.server.title || s.run.server.name || ''] : []))
    .filter(Boolean);
  return [...new Set(names.length > 0 ? names : sides.map((s) => s.run.target.description))].join(' / ');
}

/** One value when every run has the same, else each run's, labelled. */
function perSide(
  sides: readonly Side[],
  value: (side: Side) => string,
  show: (text: string) => Fragment = (text) => text,
): Fragment {
  const values = sides.map(value);
  if (new Set(values).size === 1) return show(values[0]);
  return html`<ul class="runs">${sides.map((s, i) => html`<li><b>${s.label}</b> ${show(values[i])}</li>`)}</ul>`;
}

/** The facts that belong to each run, said once where the runs agree; the runs listed with their verdicts. */
function sidesFacts(sides: readonly Side[]): Html {
  // The revision the server negotiated, where it is not the one the run tested (or the run was of another server).
  const negotiated = ({ run: { server, revision } }: Side) => {
    if (!server) return ' · not initialized';
    if (revision === undefined) return ` · revision ${server.protocolVersion}`;
    return server.protocolVersion === revision ? '' : ` · negotiated ${server.protocolVersion}`;
  };
  const runs = html`<ul class="runs">${sides.map(
    (s) =>
      html`<li><span class="verdict s-${s.verdict}">${VERDICT[s.verdict]}</span><b>${s.label}</b> <span class="meta">${s.checks.length} checks: ${counts(s.checks)}${negotiated(s)}</span></li>`,
  )}</ul>`;
  const discovered = sides.some((s) => discoveredOf(s.run.server) !== '');
  return html`${row(
    'Target',
    perSide(
      sides,
      (s) => s.run.target.description,
      (text) => html`<code>${text}</code>`,
    ),
  )}
${row(
  'Server',
  perSide(sides, (s) => identityOf(s.run.server)),
)}
${row(byRevision(sides) ? 'Revisions' : 'Runs', runs)}
${
  sides.some((s) => s.run.server) &&
  row(
    'Capabilities',
    perSide(sides, (s) => (s.run.server ? capabilitiesOf(s.run.server) : '—')),
  )
}
${
  discovered &&
  row(
    'Discovered',
    perSide(sides, (s) => discoveredOf(s.run.server) || '—'),
  )
}`;
}

/**
 * The matrix of runs side by side: a row per area and a column per run, so one check's results in every run are
 * seen together; a cell is marked where its check ran in another run too (neither skipped) and fared otherwise there,
 * one of the two being a finding.
 */
function sidesMatrix(sides: readonly Side[], index: ReadonlyMap<CheckResult, number>): Html {
  const across = new Map(acrossSides(sides).map((a) => [a.id, a.results]));
  const FINDINGS = new Set<CheckResult['status']>(['fail', 'error', 'warn']);
  // A check that does not apply in a run (an era's own rules) says nothing of how the runs differ.
  const ran = (c: CheckResult) => c.status !== 'skip';
  const differs = (side: Side, check: CheckResult): string | undefined => {
    const others = (across.get(unprefixed(side, check.id)) ?? [])
      .map(
        (other, j) =>
          other &&
          other !== check &&
          ran(other) &&
          ran(check) &&
          other.status !== check.status &&
          (FINDINGS.has(other.status) || FINDINGS.has(check.status)) &&
          `${sides[j].label}: ${other.status}`,
      )
      .filter(Boolean);
    return others.length > 0 ? others.join(', ') : undefined;
  };
  const column = (side: Side, i: number, area: string) => {
    const checks = side.checks.filter((c) => areaIn(side, c) === area);
    const body =
      checks.length === 0
        ? html`<span class="none">—</span>`
        : html`<div class="meta">${counts(checks)}</div><div class="cells">${checks.map((c) => cell(c, index.get(c)!, differs(side, c)))}</div>`;
    return html`<td data-era="${i}">${body}</td>`;
  };
  return html`<table class="matrix sides"><thead><tr><th scope="col">area</th>${sides.map(
    (s, i) =>
      html`<th scope="col" data-era="${i}">${s.label} <span class="verdict s-${s.verdict}">${VERDICT[s.verdict]}</span></th>`,
  )}</tr></thead><tbody>
${areasOf(sides).map(
  (area) => html`<tr data-group><th scope="row">${area}</th>${sides.map((s, i) => column(s, i, area))}</tr>
`,
)}</tbody></table>
<p class="meta">A column per ${byRevision(sides) ? 'revision' : 'run'}; \u2260 marks a check that fared otherwise in another column.</p>`;
}

function checkDetails(check: CheckResult, i: number): Html {
  const sections = new Map(triad(check, LIMITS).map((s) => [s.label, s.lines]));
  const message = sections.get('message');
  // The summary line shows the message's first line; the body repeats it only when that was not all of it.
  const longMessage = message && (message.length > 1 || message[0].length > MAX_SUMMARY) && message;
  const expected = sections.get('expected');
  const actual = sections.get('actual');
  const side = (label: string, text: string[] | undefined) =>
    text && html`<div><h4>${label}</h4><pre>${lines(text)}</pre></div>`;
  return html`<details class="check s-${check.status}" id="check-${check.id}" data-item="${i}"${OPEN.has(check.status) && raw(' open')}>
<summary><span class="tag">${check.status.toUpperCase()}</span>${baselineTag(check)}<code>${check.id}</code><span>${check.title}</span><span class="msg">${bounded(message?.[0] ?? '', MAX_SUMMARY)}</span></summary>
<div class="body">
${requirement(check)}
${baselineNote(check)}
${longMessage && html`<div><h4>Message</h4><pre>${lines(longMessage)}</pre></div>`}
${(expected || actual) && html`<div class="compare">${side('Expected', expected)}${side('Actual', actual)}</div>`}
${diff(check.expected, check.actual)}
${transcript(check)}
<p class="meta">${check.level} · ${duration(check.durationMs)} · <a href="#check-${check.id}">link to this check</a></p>
</div>
</details>
`;
}

function requirement(check: CheckResult): Html {
  const r = check.requirement;
  const href = safeHref(r.spec);
  // A spec that is not an http(s) URL (say `javascript:`) is shown, never linked.
  const id = href
    ? html`<a href="${href}" rel="noreferrer">${r.id}</a>`
    : html`<code>${r.id}</code> <code>${r.spec}</code>`;
  return html`<div><h4>Requirement</h4><p class="req"><span class="level">${r.level}</span> ${id} — ${r.text}</p></div>`;
}

/** How the expected-failures baseline sees the check, in the summary line. */
function baselineTag(check: CheckResult): Html | undefined {
  if (isStale(check)) return html`<span class="note">stale baseline entry</span>`;
  if (isExpectedFailure(check)) return html`<span class="note">expected failure</span>`;
  return undefined;
}

function baselineNote(check: CheckResult): Html | undefined {
  const { baseline } = check;
  if (!baseline) return undefined;
  const text = isStale(check)
    ? staleAdvice(check)
    : baseline.messageDiffers
      ? `listed by the expected-failures entry ${baseline.entry}, which expects the message ${baseline.message}: this failure differs, so it fails the run`
      : `listed by the expected-failures entry ${baseline.entry}${baseline.reason ? `: ${baseline.reason}` : ''}`;
  return html`<div><h4>Baseline</h4><p>${text}</p></div>`;
}

/** A table of structural differences; none when the only difference is the whole value (the two sides say it all). */
function diff(expected: unknown, actual: unknown): Html | undefined {
  // One more than shown, to know whether there are more.
  const found = jsonDiff(expected, actual, MAX_DIFFERENCES + 1);
  if (found.length === 0 || found[0].path === '') return undefined;
  const differences = found.slice(0, MAX_DIFFERENCES);
  const absent = html`<span class="absent">absent</span>`;
  const show = (value: unknown) => html`<code>${bounded(toJson(value), MAX_DIFF_VALUE)}</code>`;
  const more = found.length > MAX_DIFFERENCES && ` (the first ${MAX_DIFFERENCES})`;
  return html`<div><h4>Differences${more}</h4><table class="diff"><thead><tr><th>path</th><th>expected</th><th>actual</th></tr></thead><tbody>
${differences.map(
  (
    d,
  ) => html`<tr class="${d.kind}"><td><code>${d.path}</code></td><td>${d.kind === 'extra' ? absent : show(d.expected)}</td><td>${d.kind === 'missing' ? absent : show(d.actual)}</td></tr>
`,
)}</tbody></table></div>`;
}

/** The frames, one per line (`#3 +12.5 ms → …`), marked by direction; a frame cut when recorded ends with its byte count. */
function transcript(check: CheckResult): Html | undefined {
  const entries = check.transcript ?? [];
  if (entries.length === 0) return undefined;
  return html`<details class="transcript"><summary>Transcript · ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} <span class="meta">→ sent, ← received, ! stderr, · process</span></summary><ol class="frames">
${entries.map(
  (e) => html`<li class="d-${e.dir}">${formatEntry(e)}</li>
`,
)}</ol></details>`;
}
