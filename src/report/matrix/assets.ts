import { STYLE as REPORT_STYLE, cspFor } from '../html/assets.js';

/** The single report's stylesheet (colours, filters, badges) and the grid's own rules. */
export const STYLE = `${REPORT_STYLE}
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

/**
 * The page's only script: filters the grid's rows by status (a row shows when one of its cells has it; "differs" when
 * one differs from the majority) and by area. It reads each row's facts from the JSON block and writes only `hidden`
 * and `aria-pressed`: no HTML is built from data.
 */
export const SCRIPT = `
(() => {
  'use strict';
  const data = JSON.parse(document.getElementById('matrix-data').textContent);
  const filters = document.getElementById('filters');
  const chosen = { status: '', area: '' };
  const shows = (row) =>
    (chosen.status === '' || (chosen.status === 'differs' ? row.differs : row.statuses.includes(chosen.status))) &&
    (chosen.area === '' || String(row.area) === chosen.area);
  const apply = () => {
    for (const tr of document.querySelectorAll('[data-item]')) tr.hidden = !shows(data.rows[Number(tr.dataset.item)]);
    for (const group of document.querySelectorAll('[data-group]')) group.hidden = !group.querySelector('[data-item]:not([hidden])');
    for (const button of filters.querySelectorAll('button')) button.setAttribute('aria-pressed', String(chosen[button.dataset.filter] === button.value));
  };
  filters.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    chosen[button.dataset.filter] = button.value;
    apply();
  });
  filters.hidden = false;
  apply();
})();
`;

export const CSP = cspFor(STYLE, SCRIPT);
