// A dual-era run of the faulty fixture server (the reference server in both eras, faults in one era or both), its
// combined index.html looked at in headless Chromium as a user would: one server, the revisions with their verdicts,
// a matrix of one row per area and a column per revision, a revision switch; and a screenshot of the header and
// the matrix (written to the run's folder, and to $MCPC_SCREENSHOT_DIR when set).
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { NO_CHROMIUM, launchChromium } from '../browser.js';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { type CliRun, FAULTY, runCli } from '../helpers.js';
import { loadSuite } from '../../src/suite/suite.js';

/** Every check and frame rule of the suite: each era's report lists them all. */
const ALL = await loadSuite().then(({ checks, frameRules }) => checks.length + frameRules.length);

const ERAS = ['2026-07-28', '2025-11-25'];
/**
 * batch-output breaks the initialize wire only, unknown-resource-32002 and stateless-ping-served the stateless wire
 * only, string-ids both (test/fixtures/servers/faults.mjs).
 */
const FAULTS = 'batch-output,unknown-resource-32002,stateless-ping-served,string-ids';

let run: CliRun;
let browser: Browser | undefined;
let url: string;

beforeAll(async () => {
  run = await runCli([
    '--seed',
    '1',
    '--env',
    `MCP_FAULTS=${FAULTS}`,
    '--env',
    'MCP_REVISION=all',
    '--',
    process.execPath,
    FAULTY,
  ]);
  url = pathToFileURL(join(run.out, 'index.html')).href;
  browser = await launchChromium();
}, 120_000);
afterAll(() => browser?.close());

describe('a dual-era run', () => {
  it('ends its console output with each revision’s verdict and each finding once, with the revisions it is found on', () => {
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const closing = run.stdout.slice(run.stdout.lastIndexOf('\nrevisions ') + 1).split('\n');
    expect(closing[0]).toBe('revisions   2026-07-28: fail · 2025-11-25: fail');
    expect(closing.slice(1, 7).sort()).toEqual([
      'FAIL  base/response/id-echo  on 2026-07-28, 2025-11-25',
      'FAIL  base/response/id-types  on 2026-07-28, 2025-11-25',
      'FAIL  resources/read/unknown-uri  on 2026-07-28',
      'FAIL  stateless/errors/reserved  on 2026-07-28',
      'FAIL  transport/stdio/no-batch  on 2025-11-25',
      'WARN  stateless/removed-methods  on 2026-07-28',
    ]);
    expect(closing[7]).toMatch(/^reports {5}\S+report\.json/);
  });

  it('writes a badge that names the revisions setting its verdict', async () => {
    expect(JSON.parse(await readFile(join(run.out, 'badge.json'), 'utf8'))).toMatchObject({
      label: 'MCP 2026-07-28 + 2025-11-25',
      message: '7 failing',
      color: 'red',
    });
  });
});

describe('its index.html in headless Chromium', () => {
  async function open(ctx: TestContext): Promise<{ page: Page; settle: () => Promise<void> }> {
    ctx.skip(!browser, NO_CHROMIUM);
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    ctx.onTestFinished(() => context.close());
    await page.goto(url);
    const settle = async () => {
      expect(requests.filter((u) => u.split('#')[0] !== url && !/^(data|about):/.test(u))).toEqual([]);
      expect(problems).toEqual([]);
    };
    return { page, settle };
  }
  const texts = (page: Page, selector: string) =>
    page
      .locator(selector)
      .evaluateAll((els) =>
        els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => (e as HTMLElement).innerText.trim()),
      );

  it('names the server and target once and lists the revisions with their verdicts', async (ctx) => {
    const { page, settle } = await open(ctx);
    expect(await page.locator('h1').innerText()).toMatch(/^MCP Reference Server\s+FAIL$/);
    const facts = await page.locator('.facts').innerText();
    expect(facts).toMatch(
      /^Target\s+\S+node \S+faulty-server\.mjs\s*\nServer\s+mcp-reference-server 1\.0\.0 \(MCP Reference Server\)\s*\nRevisions\s+/,
    );
    expect(facts).not.toContain(' · 2025-11-25:'); // no target glued per era
    expect(facts).not.toContain('none recorded');
    expect(await page.locator('.facts .runs').first().locator('li').allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`^FAIL\\s*2026-07-28 ${ALL} checks: \\d+ pass · 4 fail · 1 warn · \\d+ skip$`)),
      expect.stringMatching(new RegExp(`^FAIL\\s*2025-11-25 ${ALL} checks: \\d+ pass · 3 fail · \\d+ skip$`)),
    ]);
    await settle();
  });

  it('has one matrix row per area, a column per revision, and marks the checks that fail in one revision only', async (ctx) => {
    const { page, settle } = await open(ctx);
    const areas = await texts(page, '.matrix th[scope="row"]');
    expect(new Set(areas).size).toBe(areas.length);
    expect(areas).toEqual(expect.arrayContaining(['lifecycle', 'tools', 'stateless', 'transport', 'base']));
    expect(await texts(page, '.matrix th[scope="col"]')).toEqual(['area', '2026-07-28 FAIL', '2025-11-25 FAIL']);
    // The same check side by side: transport/stdio/no-batch passes over the stateless wire and fails on the other.
    const row = page.locator('.matrix tr', { has: page.locator('th[scope="row"]', { hasText: /^transport$/ }) });
    expect(await row.locator('td').count()).toBe(2);
    expect(await row.locator('td[data-era="1"] .cell.s-fail.differs').allInnerTexts()).toEqual(['stdio/no-batch']);
    // The mark (≠) is drawn by the stylesheet after the id.
    expect(
      await row.locator('td[data-era="1"] .cell.differs').evaluate((e) => getComputedStyle(e, '::after').content),
    ).toBe('" ≠"');
    expect(
      await row
        .locator('td[data-era="0"] .cell[href="#check-2026-07-28/transport/stdio/no-batch"]')
        .getAttribute('class'),
    ).toBe('cell s-pass differs');
    const marked = await page
      .locator('.cell.differs')
      .evaluateAll((els) => els.map((e) => e.getAttribute('href')!.slice('#check-'.length)).sort());
    expect(marked).toEqual(
      ['resources/read/unknown-uri', 'transport/stdio/no-batch']
        .flatMap((id) => ERAS.map((era) => `${era}/${id}`))
        .sort(),
    );
    await settle();
  });

  it('filters by one chip per area and switches between the revisions', async (ctx) => {
    const { page, settle } = await open(ctx);
    const areas = await texts(page, '.matrix th[scope="row"]');
    expect(await texts(page, '#filters button[data-filter="area"]')).toEqual(['all', ...areas]);
    expect(await texts(page, '#filters button[data-filter="era"]')).toEqual(['all', ...ERAS]);

    await page.locator('#filters button[data-filter="era"][value="1"]').click();
    expect(await texts(page, '.matrix th[scope="col"]')).toEqual(['area', '2025-11-25 FAIL']);
    const hrefs = await page
      .locator('.cell')
      .evaluateAll((els) =>
        els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => e.getAttribute('href')),
      );
    expect(hrefs.length).toBe(ALL);
    expect(hrefs.every((h) => h!.startsWith('#check-2025-11-25/'))).toBe(true);
    expect(await texts(page, 'details.check')).toHaveLength(ALL);

    await page.locator('#filters button[data-filter="status"][value="fail"]').click();
    await page.locator('#filters button[data-filter="era"][value=""]').click();
    expect(await texts(page, '.matrix th[scope="row"]')).toEqual(
      expect.arrayContaining(['transport', 'stateless', 'resources', 'base']),
    );
    await page.locator('#filters button[data-filter="area"]', { hasText: /^base$/ }).click();
    expect(await texts(page, '.matrix th[scope="row"]')).toEqual(['base']);
    expect(await texts(page, '.cell')).toEqual([
      'response/id-types',
      'response/id-echo',
      'response/id-types',
      'response/id-echo',
    ]);
    await settle();
  });

  it('takes a screenshot of the header and the matrix', async (ctx) => {
    const { page, settle } = await open(ctx);
    const top = (await page.locator('header').boundingBox())!;
    const matrix = (await page.locator('#matrix').boundingBox())!;
    const path = join(run.out, 'dual-era.png');
    await page.screenshot({
      path,
      fullPage: true,
      clip: { x: 0, y: top.y - 16, width: 1280, height: matrix.y + matrix.height - top.y + 32 },
    });
    const png = await readFile(path);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // Width and height from the IHDR chunk: the whole header and matrix, not one screen of them.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([
      1280,
      Math.round(matrix.y + matrix.height - top.y + 32),
    ]);
    expect(png.readUInt32BE(20)).toBeGreaterThan(1500);
    if (process.env.MCPC_SCREENSHOT_DIR) await copyFile(path, join(process.env.MCPC_SCREENSHOT_DIR, 'dual-era.png'));
    await settle();
  });
});
