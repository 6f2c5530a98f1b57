import type { Matrix, MatrixCell, MatrixColumn, MatrixRow, MatrixServerRun } from '../../schema/generated/matrix.js';
import { PAGES } from '../html/assets.js';
import { html, pageHead, raw, safeHref, scriptJson, type Html } from '../html/markup.js';
import { STATUSES } from '../summary.js';
import { entryName } from './build.js';
import { duration } from '../text.js';

const LETTER = { pass: 'P', fail: 'F', warn: 'W', skip: 'S', error: 'E' } as const;
const VERDICT = { pass: 'PASS', fail: 'FAIL', error: 'ERROR', 'no-report': 'NO REPORT' } as const;

/** `a/b c` → `a/b%20c`: a folder as a link, each segment encoded. */
const folderHref = (folder: string) => folder.split('/').map(encodeURIComponent).join('/');
/** The check's details in the column's own index.html (its `<details id="check-<id>">`). */
const checkHref = (column: MatrixColumn, id: string) =>
  `${folderHref(column.folder)}/index.html#check-${encodeURIComponent(id)}`;

const counts = (c: MatrixColumn['summary']) =>
  STATUSES.filter((s) => c[s] > 0)
    .map((s) => `${c[s]} ${s}`)
    .join(' · ') || 'no checks';

/**
 * matrix.html: a self-contained page (no network) with every server's verdict, the grid (rows: checks grouped by area;
 * columns: server × revision; cells coloured by status, linking to the check in that run's index.html, outlined where
 * they differ from the row's majority), filters by status and area, and every fail and warn with its requirement.
 * Every string from the matrix is escaped by the `html` template.
 */
export function renderMatrixHtml(matrix: Matrix): string {
  const areas = [...new Set(matrix.rows.map((r) => r.area))];
  // What the report's filter script needs of each row, by position (its `matrix` page, html/assets.ts).
  const data = {
    rows: matrix.rows.map((r) => ({
      area: areas.indexOf(r.area),
      statuses: [...new Set(r.cells.flatMap((c) => (c ? [c.status] : [])))],
      differs: r.cells.some((c) => c?.differs === true),
    })),
  };
  const failing = matrix.servers.filter((s) => s.verdict !== 'pass').length;
  const sides = sidesOf(matrix);
  const entries = sides.map(([side, n]) => `${n} ${side}${n === 1 ? '' : 's'}`).join(' · ');
  const names = sides.map(([side]) => side);
  // "Servers", "Servers and clients", "Servers, clients and authorization servers"…
  const plural = names.map((side) => `${side}s`);
  const heading = plural.length > 1 ? `${plural.slice(0, -1).join(', ')} and ${plural.at(-1)}` : plural[0];
  const page = PAGES.matrix;
  return html`${pageHead(page.csp, page.style, `MCP conformance matrix · ${entries}`)}
<body>
<header>
<h1>MCP conformance matrix</h1>
<p class="meta">${entries} · ${matrix.columns.length} runs · ${matrix.rows.length} checks · ${failing} not passing</p>
</header>
<section id="servers">
<h2>${heading[0].toUpperCase()}${heading.slice(1)}</h2>
${serversTable(matrix, names.join(' or '))}
</section>
<section id="grid">
<h2>Checks by ${names.join(' or ')} and revision</h2>
${filters(areas)}
${grid(matrix, areas)}
</section>
<section id="explained" class="explained">
<h2>Failures and warnings, with the requirement behind each</h2>
${explained(matrix)}
</section>
<footer>Rendered by ${matrix.tool.name} ${matrix.tool.version} from matrix.json. An outlined cell differs from the majority of its row's judged cells (skips left out).</footer>
<script type="application/json" id="matrix-data">${scriptJson(data)}</script>
<script>${raw(page.script)}</script>
</body>
</html>
`.value;
}

const SIDE_NAME = { server: 'server', client: 'client', authorization: 'authorization server' } as const;

/** Each side with entries and how many, in this order; servers always (a matrix of clients says "0 servers"). */
function sidesOf(matrix: Matrix): [string, number][] {
  const count = (side: keyof typeof SIDE_NAME) => matrix.servers.filter((s) => (s.side ?? 'server') === side).length;
  return (['server', 'client', 'authorization'] as const)
    .map((side): [string, number] => [SIDE_NAME[side], count(side)])
    .filter(([, n], i) => i === 0 || n > 0);
}

function serversTable(matrix: Matrix, entry: string): Html {
  const row = (s: MatrixServerRun) => {
    const labels = Object.entries(s.labels ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join(' · ');
    const link =
      s.verdict === 'no-report' ? html`${s.name}` : html`<a href="${folderHref(s.folder)}/index.html">${s.name}</a>`;
    const who = s.verdict === 'no-report' ? '' : html`<br><span class="meta">${entryName(matrix, s)}</span>`;
    return html`<tr><th scope="row">${link}${who}</th><td>${labels}</td><td><span class="verdict s-${s.verdict}">${VERDICT[s.verdict]}</span></td><td>${counts(s.summary)}</td><td>${s.durationMs !== undefined ? duration(s.durationMs) : ''}</td><td>${s.exitCode !== undefined ? `exit ${s.exitCode}` : ''}${s.timedOut ? ' · over budget' : ''}</td><td>${s.reason ?? ''}</td></tr>
`;
  };
  return html`<table class="servers"><thead><tr><th>${entry}</th><th>labels</th><th>verdict</th><th>checks</th><th>time</th><th>run</th><th>note</th></tr></thead><tbody>
${matrix.servers.map(row)}</tbody></table>`;
}

function filters(areas: readonly string[]): Html {
  const button = (filter: 'status' | 'area', value: string, label: string) =>
    html`<button type="button" data-filter="${filter}" value="${value}" aria-pressed="false">${label}</button>`;
  return html`<div class="filters" id="filters" hidden>
<div><span>Status</span>${button('status', '', 'all')}${STATUSES.map((s) => button('status', s, s))}${button('status', 'differs', 'differs from the majority')}</div>
<div><span>Area</span>${button('area', '', 'all')}${areas.map((area, i) => button('area', String(i), area))}</div>
</div>`;
}

function grid(matrix: Matrix, areas: readonly string[]): Html {
  const { columns, servers } = matrix;
  // Consecutive columns of one server share its header cell.
  const spans: { server: MatrixServerRun; span: number }[] = [];
  for (const c of columns) {
    const last = spans.at(-1);
    if (last && last.server === servers[c.server]) last.span++;
    else spans.push({ server: servers[c.server], span: 1 });
  }
  const summary = (c: MatrixColumn) =>
    html`<th class="sum"><span class="verdict s-${c.verdict}">${VERDICT[c.verdict]}</span><br>${counts(c.summary)}<br>${c.durationMs !== undefined ? duration(c.durationMs) : ''}${c.differs > 0 ? html`<br>≠ majority: ${c.differs}` : ''}</th>`;
  return html`<table class="grid">
<thead>
<tr><th>check</th>${spans.map(({ server, span }) => html`<th colspan="${span}">${server.name}<br><span class="meta">${SIDE_NAME[server.side ?? 'server']}</span></th>`)}</tr>
<tr><th>revision</th>${columns.map((c) => html`<th>${c.revision}</th>`)}</tr>
<tr><th>verdict</th>${columns.map(summary)}</tr>
</thead>
${areas.map((area) => {
  const rows = matrix.rows.map((row, i) => ({ row, i })).filter(({ row }) => row.area === area);
  return html`<tbody data-group>
<tr class="area"><th colspan="${columns.length + 1}">${area}</th></tr>
${rows.map(
  ({
    row,
    i,
  }) => html`<tr data-item="${i}"><th scope="row" title="${row.title}"><code>${row.id}</code> <span class="meta">${row.level}</span></th>${row.cells.map((cell, c) => cellHtml(row, cell, columns[c]))}</tr>
`,
)}</tbody>
`;
})}</table>`;
}

function cellHtml(row: MatrixRow, cell: MatrixCell | null, column: MatrixColumn): Html {
  if (!cell) return html`<td class="none" title="not in this run">·</td>`;
  const title = `${row.id} · ${cell.status}${cell.message ? `: ${cell.message}` : ''}${cell.differs ? ` (majority: ${row.majority})` : ''}`;
  return html`<td class="s-${cell.status}${cell.differs ? ' differs' : ''}"><a href="${checkHref(column, row.id)}" title="${title}">${LETTER[cell.status]}</a></td>`;
}

function explained(matrix: Matrix): Html {
  const items = matrix.columns.map((column, c) => {
    const server = matrix.servers[column.server];
    const cells = matrix.rows.flatMap((row) => {
      const cell = row.cells[c];
      return cell && (cell.status === 'fail' || cell.status === 'warn') ? [{ row, cell }] : [];
    });
    if (cells.length === 0) return undefined;
    return html`<h3>${server.name} · ${column.revision}</h3>
<ul>
${cells.map(
  ({
    row,
    cell,
  }) => html`<li><span class="tag s-${cell.status}">${cell.status.toUpperCase()}</span> <a href="${checkHref(column, row.id)}"><code>${row.id}</code></a> — ${cell.message ?? ''}${requirement(cell)}</li>
`,
)}</ul>
`;
  });
  const reasons = matrix.servers.filter((s) => s.verdict === 'no-report');
  return html`${reasons.length > 0 && html`<ul>${reasons.map((s) => html`<li><span class="tag s-no-report">NO REPORT</span> ${s.name} — ${s.reason ?? 'no report'}</li>`)}</ul>`}
${items.some(Boolean) ? items : html`<p>None.</p>`}`;
}

function requirement(cell: MatrixCell): Html | undefined {
  const r = cell.requirement;
  if (!r) return undefined;
  const href = safeHref(r.spec);
  const id = href
    ? html`<a href="${href}" rel="noreferrer">${r.id}</a>`
    : html`<code>${r.id}</code> <code>${r.spec}</code>`;
  return html`<p class="req"><b>${r.level}</b> ${id} — ${r.text}</p>`;
}
