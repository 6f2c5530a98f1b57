import { createHash } from 'node:crypto';

/** The page's stylesheet: static, so its hash can go into the Content-Security-Policy. */
const STYLE = `
:root { --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --skip: #6e7781; --error: #8250df; --line: #d0d7de; --muted: #57606a; --bg-soft: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 78rem; padding: 1.5rem; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; }
[hidden] { display: none !important; }
h1 { font-size: 1.5rem; margin: 0 0 .75rem; display: flex; align-items: center; gap: .75rem; flex-wrap: wrap; }
h2 { font-size: 1.15rem; margin: 2rem 0 .75rem; padding-bottom: .3rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
h4 { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 0 0 .25rem; }
code, pre, .frames { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { margin: 0; padding: .5rem .75rem; background: var(--bg-soft); border: 1px solid var(--line); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 28rem; overflow: auto; }
a { color: #0969da; }
.verdict { font-size: .85rem; padding: .15rem .6rem; border-radius: 2rem; color: #fff; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.notice { padding: .5rem .75rem; border-radius: 6px; background: #fff8c5; border: 1px solid #d4a72c; }
.totals { display: flex; gap: .75rem; flex-wrap: wrap; margin: 1.25rem 0 0; padding: 0; list-style: none; }
.totals li { min-width: 7rem; padding: .5rem .9rem; border: 1px solid var(--line); border-left-width: 5px; border-radius: 6px; }
.totals b { display: block; font-size: 1.5rem; line-height: 1.2; }
.filters { display: flex; flex-direction: column; gap: .4rem; margin-bottom: .75rem; }
.filters div { display: flex; flex-wrap: wrap; gap: .35rem; align-items: center; }
.filters span { color: var(--muted); min-width: 3.5rem; }
.filters button { font: inherit; font-size: 12.5px; padding: .15rem .6rem; border: 1px solid var(--line); border-radius: 2rem; background: #fff; cursor: pointer; }
.filters button[aria-pressed="true"] { background: #1f2328; border-color: #1f2328; color: #fff; }
.matrix { border-collapse: collapse; width: 100%; }
.matrix th, .matrix td { border-top: 1px solid var(--line); padding: .4rem .5rem; vertical-align: baseline; text-align: left; }
.matrix th { white-space: nowrap; font-weight: 600; width: 1%; }
.matrix .counts { white-space: nowrap; color: var(--muted); font-size: 12px; width: 1%; padding-right: 1rem; }
.cells { display: flex; flex-wrap: wrap; gap: 3px; }
.cell { display: inline-block; padding: .1rem .4rem; border-radius: 3px; color: #fff; font-size: 11.5px; text-decoration: none; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.cell:hover, .cell:focus { outline: 2px solid #1f2328; outline-offset: 1px; }
.s-pass { --c: var(--pass); } .s-fail { --c: var(--fail); } .s-warn { --c: var(--warn); } .s-skip { --c: var(--skip); } .s-error { --c: var(--error); }
.cell, .verdict, .tag { background: var(--c); }
.totals li { border-left-color: var(--c); }
.tag { display: inline-block; min-width: 3.4rem; text-align: center; color: #fff; border-radius: 3px; font-size: 11px; font-weight: 700; padding: .05rem .3rem; }
.check { border: 1px solid var(--line); border-left: 4px solid var(--c); border-radius: 6px; margin: .35rem 0; }
.check > summary { cursor: pointer; padding: .4rem .6rem; display: flex; gap: .6rem; align-items: baseline; flex-wrap: wrap; }
.check > summary .note { font-size: 11px; font-weight: 600; border: 1px solid var(--c); color: var(--c); border-radius: 3px; padding: 0 .3rem; }
.check > summary .msg { color: var(--muted); flex: 1 1 20rem; overflow-wrap: anywhere; }
.check[open] > summary { border-bottom: 1px solid var(--line); background: var(--bg-soft); }
.check:target { box-shadow: 0 0 0 3px #54aeff66; }
.body { padding: .6rem .75rem .75rem; display: grid; gap: .75rem; }
.body p { margin: 0; }
.req .level { font-weight: 700; }
.compare { display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; }
@media (max-width: 50rem) { .compare { grid-template-columns: 1fr; } }
.diff { border-collapse: collapse; width: 100%; }
.diff th, .diff td { border: 1px solid var(--line); padding: .2rem .5rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
.diff th { background: var(--bg-soft); font-weight: 600; }
.diff .missing td:first-child { box-shadow: inset 3px 0 var(--fail); }
.diff .extra td:first-child { box-shadow: inset 3px 0 var(--warn); }
.diff .changed td:first-child { box-shadow: inset 3px 0 #0969da; }
.absent { color: var(--muted); font-style: italic; }
.transcript > summary { cursor: pointer; font-weight: 600; }
.transcript > summary .meta { font-weight: 400; }
.frames { list-style: none; margin: .4rem 0 0; padding: 0; border: 1px solid var(--line); border-radius: 6px; max-height: 32rem; overflow: auto; }
.frames li { padding: .15rem .6rem; white-space: pre-wrap; overflow-wrap: anywhere; border-left: 3px solid transparent; }
.frames li + li { border-top: 1px solid #eaeef2; }
.d-send { border-left-color: #0969da !important; }
.d-recv { border-left-color: var(--pass) !important; }
.d-stderr { border-left-color: var(--warn) !important; background: #fff8c5; }
.d-event { border-left-color: var(--skip) !important; color: var(--muted); }
.meta { color: var(--muted); font-size: 12px; }
footer { margin-top: 2rem; color: var(--muted); font-size: 12px; }
`;

/** What a page of runs side by side adds to the stylesheet: a column per run in the matrix, and the runs' list. */
const SIDES_STYLE = `
.matrix.sides thead th { color: var(--muted); border-top: 0; }
/* Equal shares, whatever the number of runs: each run's column is as wide as the others. */
.matrix.sides thead th + th, .matrix.sides td { width: 50%; white-space: normal; }
.matrix.sides td .counts { color: var(--muted); font-size: 12px; margin-bottom: .2rem; }
.matrix.sides .none { color: var(--muted); }
.cell.differs::after { content: " \\2260"; font-weight: 700; }
.runs { list-style: none; margin: 0; padding: 0; display: grid; gap: .2rem; }
.runs .verdict { font-size: .75rem; padding: .05rem .5rem; margin-right: .4rem; }
`;

/** What the matrix of servers (matrix.html) adds: the full-width grid of checks by server × revision, and its lists. */
const MATRIX_STYLE = `
body { max-width: none; }
.grid { border-collapse: separate; border-spacing: 0; font-size: 12px; }
.grid th, .grid td { border-bottom: 1px solid var(--line); padding: .15rem .35rem; text-align: center; white-space: nowrap; }
.grid thead th { position: sticky; background: #fff; z-index: 1; }
.grid thead tr:nth-child(1) th { top: 0; }
.grid thead tr:nth-child(2) th { top: 1.6rem; font-weight: 400; color: var(--muted); }
.grid thead tr:nth-child(3) th { top: 3.1rem; }
.grid tbody th { text-align: left; font-weight: 400; }
.grid .area th { background: var(--bg-soft); font-weight: 600; text-align: left; }
.grid td a { display: block; min-width: 1.6rem; color: #fff; background: var(--c); border-radius: 3px; text-decoration: none; font-weight: 700; }
.grid td.differs a { outline: 2px solid #1f2328; outline-offset: -2px; }
.grid td.none { color: var(--muted); }
.grid .sum { font-weight: 400; font-size: 11px; color: var(--muted); }
.grid .sum .verdict { display: inline-block; font-size: 11px; margin-bottom: .1rem; }
.s-no-report { --c: #1f2328; }
.servers { border-collapse: collapse; width: 100%; }
.servers th, .servers td { border-top: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: baseline; }
.explained li { margin: .35rem 0; }
.explained .req { color: var(--muted); margin: .1rem 0 0; }
`;

/** The pages that share the stylesheet and the filter script: one run's report, runs side by side, the matrix of servers. */
export type Page = 'run' | 'sides' | 'matrix';

/**
 * The pages' only script: filters the items (`data-item`) by status and area, hides a group (`data-group`) left
 * without a shown item, and opens the check a `#check-<id>` link points at. It reads each item's facts by position
 * from the page's JSON block, and writes only `hidden`, `open` and `aria-pressed`: no HTML is built from data. Without
 * it the page still works.
 * - `run`: an item is a check, of one status.
 * - `sides`: also by run, the runs side by side of a dual-era report, whose matrix columns it hides too.
 * - `matrix`: an item is a row of the matrix of servers, showing when one of its cells has the status; the status
 *   `differs` shows the rows where a cell differs from the row's majority. It has no `<details>` to open.
 */
const scriptFor = (page: Page): string => {
  const sides = page === 'sides';
  const matrix = page === 'matrix';
  const hasStatus = matrix
    ? "(chosen.status === 'differs' ? check.differs : check.statuses.includes(chosen.status))"
    : 'check.status === chosen.status';
  return `
(() => {
  'use strict';
  const data = JSON.parse(document.getElementById('${matrix ? 'matrix-data' : 'report-data'}').textContent);
  const filters = document.getElementById('filters');
  // "" means all; an area is its position in the report, so no server string is compared here.
  const chosen = { status: '', area: ''${sides ? ", era: ''" : ''} };
  const apply = () => {
    for (const item of document.querySelectorAll('[data-item]')) {
      const check = data.${matrix ? 'rows' : 'checks'}[Number(item.dataset.item)];
      item.hidden = !((chosen.status === '' || ${hasStatus}) && (chosen.area === '' || String(check.area) === chosen.area)${sides ? " && (chosen.era === '' || String(check.era) === chosen.era)" : ''});
    }
${
  sides
    ? `    for (const column of document.querySelectorAll('[data-era]')) {
      column.hidden = chosen.era !== '' && column.dataset.era !== chosen.era;
    }
`
    : ''
}    for (const group of document.querySelectorAll('[data-group]')) {
      group.hidden = !group.querySelector('[data-item]:not([hidden])');
    }
    for (const button of filters.querySelectorAll('button')) {
      button.setAttribute('aria-pressed', String(chosen[button.dataset.filter] === button.value));
    }
  };
  filters.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    chosen[button.dataset.filter] = button.value;
    apply();
  });
  const reveal = () => {
    let id;
    try {
      id = decodeURIComponent(location.hash.slice(1));
    } catch {
      return; // a malformed %-escape names no check
    }
    const target = document.getElementById(id);
    if (target instanceof HTMLDetailsElement) {
      target.open = true;
      target.scrollIntoView({ block: 'start' });
    }
  };
  window.addEventListener('hashchange', reveal);
  filters.hidden = false;
  apply();
  reveal();
})();
`;
};

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * Nothing loads from anywhere; only the page's own stylesheet and script may style or run it (by hash, so markup
 * injected by a rendering bug would still be inert). Inline `style` attributes and handlers are refused.
 */
const cspFor = (style: string, script: string): string =>
  [
    "default-src 'none'",
    `style-src ${sha256(style)}`,
    `script-src ${sha256(script)}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');

const pageOf = (style: string, script: string) => ({ style, script, csp: cspFor(style, script) });

/** Each page's stylesheet (the shared one, with what the page adds), script and policy. */
export const PAGES: Record<Page, { style: string; script: string; csp: string }> = {
  run: pageOf(STYLE, scriptFor('run')),
  sides: pageOf(STYLE + SIDES_STYLE, scriptFor('sides')),
  matrix: pageOf(STYLE + MATRIX_STYLE, scriptFor('matrix')),
};
