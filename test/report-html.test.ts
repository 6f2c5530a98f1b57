import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { NO_CHROMIUM, launchChromium } from './browser.js';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { renderHtml } from '../src/report/html.js';
import { jsonDiff } from '../src/json-diff.js';
import { escapeHtml, html, safeHref, scriptJson } from '../src/report/html/markup.js';
import { writeReports } from '../src/report/write.js';
import type { CheckResult, Report, Status } from '../src/schema/generated/report.js';
import { fakeCheck } from './helpers.js';

/** Markup a hostile server might put in any string it controls. */
const IMG = '<img src=x onerror="window.__pwned=1">';
const CLOSE_SCRIPT = '</script><script>window.__pwned=1</script>';
const JS_LINK = 'javascript:window.__pwned=1';

const check = (id: string, status: Status, over: Partial<CheckResult> = {}) =>
  fakeCheck(id, status, { durationMs: 3, ...over }, 'server/tools#calling-tools');

const tools = [{ name: 'echo', description: IMG, inputSchema: { type: 'object' } }];

const report: Report = {
  tool: { name: 'mcp-conformance', version: '0.1.0' },
  target: { description: `./server ${CLOSE_SCRIPT}` },
  server: {
    name: CLOSE_SCRIPT,
    version: '1.0.0',
    title: IMG,
    protocolVersion: '2025-11-25',
    capabilities: { tools: {}, [IMG]: {} },
    counts: { tools: 1 },
  },
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1234,
  seed: 42,
  summary: { pass: 3, fail: 1, warn: 1, skip: 1, error: 1 },
  checks: [
    check('lifecycle/initialize/result', 'pass', {
      transcript: [{ seq: 0, dir: 'send', t: 0.5, bytes: 40, text: '{"jsonrpc":"2.0","id":1,"method":"initialize"}' }],
    }),
    check('base/ping/answers', 'pass'),
    check('tools/call/unknown-tool', 'fail', {
      title: `Unknown tool ${IMG}`,
      message: `tools/call answered with a result ${IMG}\nsecond line ${CLOSE_SCRIPT}`,
      expected: { error: { code: -32602 }, id: 1 },
      actual: { result: { tools }, id: '1' },
      transcript: [
        { seq: 0, dir: 'event', t: 0, bytes: 5, text: 'spawn node server.js' },
        { seq: 1, dir: 'send', t: 1.2, bytes: 60, text: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' },
        {
          seq: 2,
          dir: 'recv',
          t: 3.45,
          bytes: 9000,
          text: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools } }).slice(0, 90),
          truncated: true,
        },
        { seq: 3, dir: 'stderr', t: 4, bytes: 40, text: `log ${CLOSE_SCRIPT}` },
      ],
    }),
    check('tools/names/format', 'warn', { expected: '^[A-Za-z0-9_.-]{1,128}$', actual: ['bad name!'] }),
    check('tools/call/skipped', 'skip', { message: 'tool calls disabled' }),
    check('resources/read/unknown-uri', 'error', {
      message: `harness error ${IMG}`,
      requirement: { id: 'res.read.not-found', level: 'MUST', spec: JS_LINK, text: `hostile spec ${IMG}` },
    }),
    check('schema/results', 'pass', { area: `"><img src=x onerror="window.__pwned=1">` }),
  ],
};

describe('the html template', () => {
  it('escapes every interpolated string, text and attribute alike, and keeps safe fragments', () => {
    const title = `"'<&>`;
    expect(html`<a title="${title}">${IMG}${html`<b>ok</b>`}${[1, undefined, false, 'x']}</a>`.value).toBe(
      '<a title="&quot;&#39;&lt;&amp;&gt;">&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;<b>ok</b>1x</a>',
    );
    expect(escapeHtml('</script>')).toBe('&lt;/script&gt;');
    // Characters that can disguise text are made visible (bidi override, escape, NUL).
    expect(html`${'a\u202eb\u001b[31m\u0000'}`.value).toBe('a\\u202eb\\x1b[31m\\x00');
  });

  it('links only http(s) URLs', () => {
    expect(safeHref('https://modelcontextprotocol.io/x#y')).toBe('https://modelcontextprotocol.io/x#y');
    for (const url of [JS_LINK, ' javascript:alert(1)', 'data:text/html,<script>', 'vbscript:x', 'not a url'])
      expect(safeHref(url)).toBeUndefined();
  });

  it('embeds JSON that no string can end', () => {
    const text = scriptJson({ s: CLOSE_SCRIPT, t: '<!--' }).value;
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual({ s: CLOSE_SCRIPT, t: '<!--' });
  });
});

describe('jsonDiff', () => {
  it('lists missing and extra keys and changed values by JSON Pointer', () => {
    expect(jsonDiff({ error: { code: -32602 }, id: 1, 'a/b': 1 }, { result: {}, id: '1', 'a/b': 1 }, 50)).toEqual([
      { kind: 'missing', path: '/error', expected: { code: -32602 } },
      { kind: 'changed', path: '/id', expected: 1, actual: '1' },
      { kind: 'extra', path: '/result', actual: {} },
    ]);
    expect(jsonDiff([1, { a: 1 }], [1, { a: 2 }, 3], 50)).toEqual([
      { kind: 'changed', path: '/1/a', expected: 1, actual: 2 },
      { kind: 'extra', path: '/2', actual: 3 },
    ]);
    expect(jsonDiff({ 'x~/y': [] }, { 'x~/y': {} }, 50)).toEqual([
      { kind: 'changed', path: '/x~0~1y', expected: [], actual: {} },
    ]);
    expect(jsonDiff({ a: [1, 2] }, { a: [1, 2] }, 50)).toEqual([]);
    expect(jsonDiff('x', 2, 50)).toEqual([{ kind: 'changed', path: '', expected: 'x', actual: 2 }]);
    expect(jsonDiff({}, Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, i])), 10)).toHaveLength(10);
  });
});

describe('index.html as text', () => {
  const page = renderHtml(report);

  it('is one self-contained document whose only scripts are its own', () => {
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(page.match(/<script/g)).toHaveLength(2);
    expect(page).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-[^"]+&#39;; script-src &#39;sha256-/,
    );
    // Nothing to fetch: no src at all, and links only within the page or to the specification.
    expect(page).not.toMatch(/\bsrc="/);
    const hrefs = [...page.matchAll(/\bhref="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs.filter((h) => !h.startsWith('#') && !h.startsWith('https://modelcontextprotocol.io/'))).toEqual([]);
    expect(page).not.toContain(IMG);
    expect(page).not.toContain(CLOSE_SCRIPT);
    expect(page).not.toContain('href="javascript:');
    expect(page).toContain('id="check-tools/call/unknown-tool"');
  });

  it('shows where the time went in one line under the heading, escaped', () => {
    const line = `19.4 s: 24 server starts at 1.2 s each; tool \`${IMG}\` 2.1 s`;
    const timed = renderHtml({ ...report, criticalPath: { line, slowCalls: [], fixedWaits: [] } });
    expect(timed).toMatch(/<\/h1>\n<p class="meta" id="critical-path">Where the time went: 19\.4 s: 24 server starts/);
    expect(timed).not.toContain(IMG);
    expect(page).not.toContain('id="critical-path"');
    // Beside it, the server starts the report lists (what each was for is in report.json).
    const servers = [
      { for: 'shared session', checks: ['ping/basic'] },
      { for: 'fresh session for lifecycle/version/echo', checks: ['lifecycle/version/echo'] },
    ];
    const counted = renderHtml({
      ...report,
      processes: { started: 2, mostAlive: 2, servers },
      criticalPath: { line, slowCalls: [], fixedWaits: [] },
    });
    expect(counted).toMatch(/id="critical-path">Where the time went: [^<]* · 2 server starts<\/p>/);
  });

  it('bounds a long diff, and shows none when the whole value differs', () => {
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, i]));
    const long = renderHtml({ ...report, checks: [check('tools/a/b', 'fail', { expected: {}, actual: many })] });
    expect(long).toContain('Differences (the first 50)');
    expect(long.match(/<tr class="extra">/g)).toHaveLength(50);
    const scalar = renderHtml({ ...report, checks: [check('tools/a/b', 'fail', { expected: 'x', actual: ['y'] })] });
    expect(scalar).not.toContain('Differences');
  });
});

// ---- in a real browser

describe('index.html in headless Chromium', () => {
  let browser: Browser | undefined;
  let dir: string;
  let url: string;

  beforeAll(async () => {
    browser = await launchChromium();
    if (!browser) return;
    dir = await mkdtemp(join(tmpdir(), 'mcp-html-'));
    url = pathToFileURL((await writeReports(report, dir)).html).href;
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A fresh page at `hash`, recording console errors, page errors and every request the page makes. */
  async function open(ctx: TestContext, hash = '', javaScriptEnabled = true) {
    ctx.skip(!browser, NO_CHROMIUM);
    const context = await browser!.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    ctx.onTestFinished(() => context.close());
    await page.goto(url + hash);
    const settle = async () => {
      // The document itself is the only file the page may ask for; everything else must be inline.
      expect(requests.filter((u) => u.split('#')[0] !== url && !/^(data|about):/.test(u))).toEqual([]);
      expect(problems).toEqual([]);
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
    };
    return { page, settle };
  }

  const byId = (page: Page, id: string) => page.locator(`[id="${id}"]`);
  const isOpen = (page: Page, id: string) => byId(page, id).evaluate((d) => (d as HTMLDetailsElement).open);
  const visibleIds = (page: Page, selector: string) =>
    page
      .locator(selector)
      .evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => e.id));

  it('renders the facts, totals, matrix and checks, with server strings as literal text', async (ctx) => {
    const { page, settle } = await open(ctx);
    expect(await page.locator('h1').innerText()).toContain(IMG);
    expect(await page.locator('.facts').innerText()).toContain(CLOSE_SCRIPT);
    expect(await page.locator('.facts').innerText()).toMatch(
      /Revision\s+2025-11-25[\s\S]*Duration\s+1\.23 s\s+Seed\s+42 \(--seed 42 replays/,
    );
    expect(await page.locator('.totals').innerText()).toMatch(
      /3\s+pass[\s\S]*1\s+fail[\s\S]*1\s+warn[\s\S]*1\s+skip[\s\S]*1\s+error/,
    );
    expect(await page.locator('.matrix th').allInnerTexts()).toEqual([
      'lifecycle',
      'base',
      'tools',
      'resources',
      '"><img src=x onerror="window.__pwned=1">',
    ]);
    expect(await page.locator('.cell').count()).toBe(7);
    expect(
      await page.evaluate(
        '[document.scripts.length, document.images.length, document.querySelectorAll("iframe,object,embed").length]',
      ),
    ).toEqual([2, 0, 0]);

    // Failures and errors start open; the rest closed.
    expect(await isOpen(page, 'check-tools/call/unknown-tool')).toBe(true);
    expect(await isOpen(page, 'check-resources/read/unknown-uri')).toBe(true);
    expect(await isOpen(page, 'check-base/ping/answers')).toBe(false);
    const failure = byId(page, 'check-tools/call/unknown-tool');
    expect(await failure.locator(':scope > summary').innerText()).toContain(`Unknown tool ${IMG}`);
    expect(await failure.locator('.req a').getAttribute('href')).toBe(report.checks[2].requirement.spec);
    const body = await failure.locator('.body').innerText();
    expect(body).toContain(`second line ${CLOSE_SCRIPT}`);
    expect(body).toMatch(/EXPECTED[\s\S]*"code": -32602[\s\S]*ACTUAL[\s\S]*"description": "<img src=x/i);
    // The diff names what is missing, what is extra and what changed.
    expect(
      await failure
        .locator('.diff tbody tr')
        .evaluateAll((rows) => rows.map((r) => [r.className, r.querySelector('td')!.textContent])),
    ).toEqual([
      ['missing', '/error'],
      ['changed', '/id'],
      ['extra', '/result'],
    ]);

    // A javascript: spec is shown, never linked.
    const error = byId(page, 'check-resources/read/unknown-uri');
    expect(await error.locator('.req').innerText()).toContain(JS_LINK);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    await error.locator('.req').getByText(JS_LINK).click();
    await settle();
  });

  it('filters the matrix and the checks by status and by area', async (ctx) => {
    const { page, settle } = await open(ctx);
    const all = report.checks.map((c) => `check-${c.id}`);
    expect(await page.locator('#filters').isVisible()).toBe(true);
    expect(await visibleIds(page, 'details.check')).toEqual(all);

    await page.locator('#filters button[data-filter="status"][value="fail"]').click();
    expect(await visibleIds(page, 'details.check')).toEqual(['check-tools/call/unknown-tool']);
    expect(await page.locator('.cell:visible').allInnerTexts()).toEqual(['call/unknown-tool']);
    expect(await page.locator('.matrix th:visible').allInnerTexts()).toEqual(['tools']);
    expect(await page.locator('#filters button[value="fail"]').getAttribute('aria-pressed')).toBe('true');

    await page.locator('#filters button[data-filter="status"][value=""]').click();
    await page.locator('#filters button[data-filter="area"]', { hasText: 'tools' }).click();
    expect(await visibleIds(page, 'details.check')).toEqual([
      'check-tools/call/unknown-tool',
      'check-tools/names/format',
      'check-tools/call/skipped',
    ]);
    expect(await page.locator('#checks h3:visible').allInnerTexts()).toEqual([expect.stringMatching(/^tools/)]);

    // Both at once: tools that warn.
    await page.locator('#filters button[value="warn"]').click();
    expect(await visibleIds(page, 'details.check')).toEqual(['check-tools/names/format']);

    // A hostile area name filters like any other.
    await page.locator('#filters button[data-filter="status"][value=""]').click();
    await page.locator('#filters button[data-filter="area"]', { hasText: 'onerror' }).click();
    expect(await visibleIds(page, 'details.check')).toEqual(['check-schema/results']);

    await page.locator('#filters button[data-filter="area"][value=""]').click();
    expect(await visibleIds(page, 'details.check')).toEqual(all);
    await settle();
  });

  it('opens a check and its transcript, which marks directions, stderr and cut frames', async (ctx) => {
    const { page, settle } = await open(ctx);
    const pass = byId(page, 'check-lifecycle/initialize/result');
    await pass.locator(':scope > summary').click();
    expect(await isOpen(page, 'check-lifecycle/initialize/result')).toBe(true);

    const failure = byId(page, 'check-tools/call/unknown-tool');
    const frames = failure.locator('.frames');
    expect(await frames.isVisible()).toBe(false);
    await failure.locator('.transcript > summary').click();
    expect(await frames.isVisible()).toBe(true);
    const lines = await frames.locator('li').allInnerTexts();
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('#0 +0 ms · spawn node server.js');
    expect(lines[1]).toMatch(/^#1 \+1\.2 ms → \{"jsonrpc"/);
    expect(lines[2]).toMatch(/^#2 \+3\.5 ms ← .*<img src=x.* … \(9000 bytes\)$/);
    expect(lines[3]).toBe(`#3 +4 ms ! log ${CLOSE_SCRIPT}`);
    expect(await frames.locator('li').evaluateAll((li) => li.map((l) => l.className))).toEqual([
      'd-event',
      'd-send',
      'd-recv',
      'd-stderr',
    ]);
    await settle();
  });

  it('opens the check a deep link names, on load and on a matrix click', async (ctx) => {
    const { page, settle } = await open(ctx, '#check-base/ping/answers');
    expect(await isOpen(page, 'check-base/ping/answers')).toBe(true);
    expect(await byId(page, 'check-base/ping/answers').locator('.body').isVisible()).toBe(true);
    const box = await byId(page, 'check-base/ping/answers').boundingBox();
    expect(box!.y).toBeGreaterThan(-1); // scrolled to the top (sub-pixel)
    expect(box!.y).toBeLessThan(900);

    expect(await isOpen(page, 'check-schema/results')).toBe(false);
    await page.locator('.cell[href="#check-schema/results"]').click();
    expect(await isOpen(page, 'check-schema/results')).toBe(true);
    expect(new URL(page.url()).hash).toBe('#check-schema/results');
    await settle();
  });

  it('works without JavaScript: no filter bar, details still open', async (ctx) => {
    const { page, settle } = await open(ctx, '', false);
    expect(await page.locator('#filters').isVisible()).toBe(false);
    expect(await page.locator('details.check:visible').count()).toBe(report.checks.length);
    await byId(page, 'check-base/ping/answers').locator(':scope > summary').click();
    expect(await byId(page, 'check-base/ping/answers').locator('.body').isVisible()).toBe(true);
    await settle();
  });

  it('takes a full-page screenshot', async (ctx) => {
    const { page, settle } = await open(ctx);
    await byId(page, 'check-tools/call/unknown-tool').locator('.transcript > summary').click();
    const path = join(dir, 'index.png');
    await page.screenshot({ path, fullPage: true });
    expect((await stat(path)).size).toBeGreaterThan(10_000);
    expect((await readFile(path)).subarray(1, 4).toString()).toBe('PNG');
    await settle();
  });
});
