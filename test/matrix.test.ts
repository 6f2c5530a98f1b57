import { matrixSchemaErrors } from './helpers.js';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { NO_CHROMIUM, launchChromium } from './browser.js';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { buildMatrix, MatrixInputError } from '../src/report/matrix/build.js';
import { renderMatrixHtml } from '../src/report/matrix/html.js';
import { writeMatrix } from '../src/report/matrix/write.js';
import { writeReports } from '../src/report/write.js';
import type { Matrix } from '../src/schema/generated/matrix.js';
import type { CheckResult, Report, Status } from '../src/schema/generated/report.js';

/** Markup a hostile server (or a servers file) might put in any string. */
const IMG = '<img src=x onerror="window.__pwned=1">';
const CLOSE_SCRIPT = '</script><script>window.__pwned=1</script>';

function check(id: string, status: Status, over: Partial<CheckResult> = {}): CheckResult {
  return {
    id,
    title: `The ${id} check`,
    area: id.split('/')[0],
    status,
    level: status === 'warn' ? 'SHOULD' : 'MUST',
    requirement: {
      id: `req.${id}`,
      level: status === 'warn' ? 'SHOULD' : 'MUST',
      spec: `https://modelcontextprotocol.io/specification/2025-11-25/${id}`,
      text: `What ${id} asks.`,
    },
    message: `${status} as seen`,
    durationMs: 1,
    ...over,
  };
}

function report(name: string, protocolVersion: string, checks: CheckResult[]): Report {
  return {
    tool: { name: 'mcp-conformance', version: '0.1.0' },
    target: { description: name },
    server: { name, version: '1.0.0', protocolVersion, capabilities: {} },
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1000,
    summary: { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 },
    checks,
  };
}

/** Three servers: two agree, one (named with markup) fails a check the others pass, and one that never started. */
async function folders(root: string): Promise<string[]> {
  const base = (extra: CheckResult[] = []) => [
    check('lifecycle/initialize/result', 'pass'),
    check('tools/call/unknown-tool', 'pass'),
    check('tools/list/paginated', 'skip'),
    ...extra,
  ];
  await writeReports(report('alpha', '2025-11-25', base([check('base/error/concise', 'warn')])), join(root, 'alpha'));
  // A dual-era server: one folder per revision, as a --revision auto run writes them.
  await writeReports(report('beta', '2025-11-25', base()), join(root, 'beta', '2025-11-25'));
  await writeReports(
    report('beta', '2026-07-28', [check('stateless/discover/result', 'pass')]),
    join(root, 'beta', '2026-07-28'),
  );
  const hostile = [
    check('lifecycle/initialize/result', 'pass'),
    check('tools/call/unknown-tool', 'fail', {
      message: `answered ${IMG}`,
      requirement: {
        id: 'tools.call.unknown',
        level: 'MUST',
        spec: 'javascript:window.__pwned=1',
        text: `spec ${CLOSE_SCRIPT}`,
      },
    }),
    check('tools/list/paginated', 'skip'),
  ];
  await writeReports(report(IMG, '2025-11-25', hostile), join(root, 'gamma'));
  await writeFile(
    join(root, 'gamma', 'matrix-run.json'),
    JSON.stringify({
      name: `gamma ${IMG}`,
      exitCode: 1,
      timedOut: false,
      durationMs: 2000,
      labels: { implementation: CLOSE_SCRIPT },
    }),
  );
  // A server whose run could not start: only how it ended.
  await mkdir(join(root, 'gone'));
  await writeFile(
    join(root, 'gone', 'matrix-run.json'),
    JSON.stringify({
      name: 'gone',
      exitCode: 2,
      timedOut: false,
      durationMs: 50,
      reason: 'mcp-conformance: cannot start /nope: not found (ENOENT)',
    }),
  );
  return ['alpha', 'beta', 'gamma', 'gone'].map((f) => join(root, f));
}

describe('the matrix of report folders', () => {
  let root: string;
  let matrix: Matrix;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mcp-matrix-'));
    matrix = await buildMatrix(await folders(root), root);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('follows its JSON Schema', () => {
    expect(matrixSchemaErrors(matrix)).toEqual([]);
  });

  it('has a column per server and revision, and a server without a report as such', () => {
    expect(matrix.servers.map((s) => [s.name, s.verdict])).toEqual([
      ['alpha', 'pass'],
      ['beta', 'pass'],
      [`gamma ${IMG}`, 'fail'],
      ['gone', 'no-report'],
    ]);
    expect(matrix.columns.map((c) => [c.folder, c.revision, c.verdict])).toEqual([
      ['alpha', '2025-11-25', 'pass'],
      ['beta/2026-07-28', '2026-07-28', 'pass'],
      ['beta/2025-11-25', '2025-11-25', 'pass'],
      ['gamma', '2025-11-25', 'fail'],
      ['gone', '-', 'no-report'],
    ]);
    expect(matrix.servers[3].reason).toContain('cannot start /nope');
  });

  it('groups rows by area and marks the cell that differs from the majority', () => {
    expect(matrix.rows.map((r) => r.id)).toEqual([
      'lifecycle/initialize/result',
      'tools/call/unknown-tool',
      'tools/list/paginated',
      'base/error/concise',
      'stateless/discover/result',
    ]);
    const unknownTool = matrix.rows[1];
    expect(unknownTool.majority).toBe('pass');
    expect(unknownTool.cells.map((c) => c?.status ?? null)).toEqual(['pass', null, 'pass', 'fail', null]);
    expect(unknownTool.cells[3]).toMatchObject({ differs: true, requirement: { id: 'tools.call.unknown' } });
    expect(matrix.columns.map((c) => c.differs)).toEqual([0, 0, 0, 1, 0]);
    // Skips neither make a majority nor differ from one.
    expect(matrix.rows[2].majority).toBeUndefined();
    // A warn carries its requirement, to be explained.
    expect(matrix.rows[3].cells[0]).toMatchObject({
      status: 'warn',
      requirement: { id: 'req.base/error/concise', level: 'SHOULD' },
    });
  });

  it('names a folder that is no report folder, and a report.json that is not one', async () => {
    await expect(buildMatrix([join(root, 'nothing-here')], root)).rejects.toThrow(MatrixInputError);
    await writeFile(join(root, 'alpha', 'report.json'), '{"checks": 3}');
    await expect(buildMatrix([join(root, 'alpha')], root)).rejects.toThrow(/not a report\.json/);
  });

  it('renders markup from servers and messages as text (escaped in the page source)', () => {
    const page = renderMatrixHtml(matrix);
    expect(page).not.toContain(IMG);
    expect(page).not.toContain(CLOSE_SCRIPT);
    expect(page).not.toContain('href="javascript:');
    expect(page.match(/<script/g)).toHaveLength(2);
  });
});

// ---- in a real browser

describe('matrix.html in headless Chromium', () => {
  let browser: Browser | undefined;
  let root: string;
  let url: string;

  beforeAll(async () => {
    browser = await launchChromium();
    if (!browser) return;
    root = await mkdtemp(join(tmpdir(), 'mcp-matrix-html-'));
    const matrix = await buildMatrix(await folders(root), root);
    url = pathToFileURL((await writeMatrix(matrix, root)).html).href;
  });
  afterAll(async () => {
    await browser?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  async function open(ctx: TestContext, target = url) {
    ctx.skip(!browser, NO_CHROMIUM);
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    ctx.onTestFinished(() => context.close());
    await page.goto(target);
    const settle = async () => {
      expect(problems).toEqual([]);
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
    };
    return { page, settle };
  }

  it('shows server names, labels and messages carrying markup as text, with no console error', async (ctx) => {
    const { page, settle } = await open(ctx);
    expect(await page.locator('.servers').innerText()).toContain(`gamma ${IMG}`);
    expect(await page.locator('.servers').innerText()).toContain(CLOSE_SCRIPT);
    expect(await page.locator('.grid thead tr').first().innerText()).toContain(`gamma ${IMG}`);
    expect(await page.locator('#explained').innerText()).toContain(`answered ${IMG}`);
    expect(await page.locator('#explained').innerText()).toContain(`spec ${CLOSE_SCRIPT}`);
    expect(await page.locator('img').count()).toBe(0);
    await settle();
  });

  it("links each cell to its check in that run's own index.html", async (ctx) => {
    const { page, settle } = await open(ctx);
    const row = page.locator('tr[data-item]').filter({ hasText: 'tools/call/unknown-tool' });
    const hrefs = await row.locator('td a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(hrefs.map((h) => h.slice(pathToFileURL(root).href.length + 1))).toEqual([
      'alpha/index.html#check-tools%2Fcall%2Funknown-tool',
      'beta/2025-11-25/index.html#check-tools%2Fcall%2Funknown-tool',
      'gamma/index.html#check-tools%2Fcall%2Funknown-tool',
    ]);
    expect(await row.locator('td.differs').count()).toBe(1);
    await settle();
    // Followed, the link opens that check's details in the run's own report.
    const { page: detail } = await open(ctx, hrefs[2]);
    const target = detail.locator('[id="check-tools/call/unknown-tool"]');
    expect(await target.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await target.innerText()).toContain(`answered ${IMG}`);
  });

  it('filters rows by status, by "differs from the majority" and by area', async (ctx) => {
    const { page, settle } = await open(ctx);
    const shown = () =>
      page
        .locator('tr[data-item]')
        .evaluateAll((trs) =>
          trs
            .filter((t) => !(t as HTMLElement).hidden && !(t.parentElement as HTMLElement).hidden)
            .map((t) => t.querySelector('code')!.textContent),
        );
    expect(await shown()).toHaveLength(5);
    await page.locator('button[data-filter="status"][value="fail"]').click();
    expect(await shown()).toEqual(['tools/call/unknown-tool']);
    await page.locator('button[data-filter="status"][value="differs"]').click();
    expect(await shown()).toEqual(['tools/call/unknown-tool']);
    await page.locator('button[data-filter="status"][value=""]').click();
    await page.locator('button[data-filter="area"]', { hasText: 'stateless' }).click();
    expect(await shown()).toEqual(['stateless/discover/result']);
    await settle();
  });
});
