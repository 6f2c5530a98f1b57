// A dual-era run's combined report (the run's revisions side by side, as conform's `combined` merges them) read as one
// server by each renderer: the HTML header and matrix, the console's closing lines, JUnit and the badge. The page in a
// browser: test/e2e/dual-era-html.test.ts.
import { describe, expect, it } from 'vitest';
import { badgeFor } from '../src/report/badge.js';
import { renderSides } from '../src/report/console.js';
import { renderHtml } from '../src/report/html.js';
import { renderJunit } from '../src/report/junit.js';
import { mergeReports } from '../src/report/merge.js';
import { sidesOf } from '../src/report/side-by-side.js';
import { summarize } from '../src/report/summary.js';
import type { CheckResult, Report, Server, Status } from '../src/schema/generated/report.js';

function check(id: string, status: Status, over: Partial<CheckResult> = {}): CheckResult {
  const level = status === 'warn' ? 'SHOULD' : 'MUST';
  return {
    id,
    title: `The ${id} check`,
    area: id.split('/')[0],
    status,
    level,
    requirement: {
      id: `req.${id}`,
      level,
      spec: 'https://modelcontextprotocol.io/specification/draft',
      text: 'as the specification asks',
    },
    message: `${status} as seen`,
    durationMs: 1,
    ...over,
  };
}

const TARGET = { description: 'http://127.0.0.1:3000/mcp', url: 'http://127.0.0.1:3000/mcp' };
const server = (
  name: string,
  protocolVersion: string,
  capabilities: Record<string, object> = { tools: {} },
): Server => ({ name, version: '1.0.0', protocolVersion, capabilities, counts: { tools: 2 } });

function run(srv: Server | undefined, checks: CheckResult[]): Report {
  return {
    tool: { name: 'mcp-conformance', version: '0.1.0' },
    target: TARGET,
    ...(srv && { server: srv }),
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 10,
    summary: summarize(checks),
    checks,
  };
}

/** Two runs side by side as a --revision auto run combines them: labelled and told apart by the revision each tested. */
const sideBySide = (...eras: [string, Report][]): Report =>
  mergeReports(eras.map(([revision, report]) => ({ source: revision, report, label: revision, revision }))).report;

// The official conformance fixture's shape: another serverInfo name in each era.
const STATELESS = run(server('everything-stateless-server', '2026-07-28'), [
  check('lifecycle/initialize/result', 'pass'),
  check('tools/call/unknown-tool', 'fail'),
  check('tools/names/format', 'warn'),
  check('stateless/discover/result', 'pass'),
  check('base/ping/answers', 'fail'),
  check('base/process/alive', 'fail'),
  check('base/after/lost', 'fail', { after: 'base/process/alive' }),
]);
const LEGACY = run(server('mcp-conformance-test-server', '2025-11-25', { tools: {}, logging: {} }), [
  check('lifecycle/initialize/result', 'pass'),
  check('tools/call/unknown-tool', 'pass'),
  check('tools/names/format', 'warn'),
  check('base/ping/answers', 'fail'),
]);
const DUAL = sideBySide(['2026-07-28', STATELESS], ['2025-11-25', LEGACY]);

/** The page's text between two markers, tags dropped and whitespace squeezed. */
const textOf = (page: string, from: string, to: string) =>
  page
    .slice(page.indexOf(from), page.indexOf(to, page.indexOf(from)))
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('index.html of a dual-era run', () => {
  const page = renderHtml(DUAL);
  const facts = textOf(page, '<dl class="facts">', '</dl>');

  it('names the server once, both names where the eras differ, and the target once', () => {
    expect(textOf(page, '<h1>', '</h1>')).toBe('everything-stateless-server / mcp-conformance-test-server FAIL');
    expect(page).toContain(
      '<title>FAIL · everything-stateless-server / mcp-conformance-test-server · MCP conformance</title>',
    );
    expect(facts).toMatch(
      /^Target http:\/\/127\.0\.0\.1:3000\/mcp Server 2026-07-28 everything-stateless-server 1\.0\.0 2025-11-25 mcp-conformance-test-server 1\.0\.0 Revisions/,
    );
    expect(page.split(TARGET.description)).toHaveLength(2); // once, not glued per era
  });

  it('lists the revisions, each with its verdict and counts, and the facts that differ per revision', () => {
    expect(facts).toContain(
      'Revisions FAIL 2026-07-28 7 checks: 2 pass · 4 fail · 1 warn FAIL 2025-11-25 4 checks: 2 pass · 1 fail · 1 warn',
    );
    expect(facts).toContain('Capabilities 2026-07-28 tools 2025-11-25 tools, logging Discovered 2 tools Started');
    expect(facts).not.toContain('none recorded');
  });

  it('says a shared server name once, and a revision that negotiated another', () => {
    const same = renderHtml(
      sideBySide(
        ['2026-07-28', STATELESS],
        ['2025-06-18', { ...STATELESS, server: server('everything-stateless-server', '2025-03-26') }],
      ),
    );
    const sameFacts = textOf(same, '<dl class="facts">', '</dl>');
    expect(sameFacts).toMatch(/Server everything-stateless-server 1\.0\.0 Revisions/);
    expect(sameFacts).toContain('2025-06-18 7 checks: 2 pass · 4 fail · 1 warn · negotiated 2025-03-26');
    expect(textOf(same, '<h1>', '</h1>')).toBe('everything-stateless-server FAIL');
  });

  it('has one matrix row per area and a column per revision, marking a check that fails in one only', () => {
    const matrix = page.slice(page.indexOf('<table class="matrix sides">'), page.indexOf('</table>'));
    expect([...matrix.matchAll(/<th scope="row">([^<]+)<\/th>/g)].map((m) => m[1])).toEqual([
      'lifecycle',
      'tools',
      'stateless',
      'base',
    ]);
    expect([...matrix.matchAll(/<th scope="col"[^>]*>([^<]+)</g)].map((m) => m[1].trim())).toEqual([
      'area',
      '2026-07-28',
      '2025-11-25',
    ]);
    // Each row has a cell per revision; stateless has no checks in 2025-11-25.
    expect(matrix.match(/<td data-era="\d">/g)).toHaveLength(8);
    expect(textOf(matrix, '<th scope="row">stateless', '</tr>')).toBe('stateless 1 pass discover/result —');
    const differs = [...matrix.matchAll(/class="cell s-(\w+) differs" href="#check-([^"]+)"[^>]*title="([^"]+)"/g)].map(
      (m) => [m[1], m[2], m[3].split('; ')[1]],
    );
    // Fails on one and passes on the other: both cells marked; a warning or failure on both is not.
    expect(differs).toEqual([
      ['fail', '2026-07-28/tools/call/unknown-tool', '2025-11-25: pass'],
      ['pass', '2025-11-25/tools/call/unknown-tool', '2026-07-28: fail'],
    ]);
  });

  it('shows every server string as text', () => {
    const IMG = '<img src=x onerror="window.__pwned=1">';
    const hostile = renderHtml(
      sideBySide(
        ['2026-07-28', { ...STATELESS, target: { description: IMG } }],
        [
          '2025-11-25',
          { ...LEGACY, server: { ...LEGACY.server!, name: IMG, title: IMG, capabilities: { [IMG]: {} } } },
        ],
      ),
    );
    expect(hostile).not.toContain(IMG);
    expect(hostile).toContain('&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;');
  });

  it('marks no check that did not apply in the other revision', () => {
    const pair = (other: Status) =>
      renderHtml(
        sideBySide(
          ['2026-07-28', run(STATELESS.server, [check('tools/x', 'fail')])],
          ['2025-11-25', run(LEGACY.server, [check('tools/x', other)])],
        ),
      );
    expect(pair('skip')).not.toMatch(/class="cell s-\w+ differs"/);
    expect(pair('pass')).toMatch(/class="cell s-fail differs"/);
  });

  it('filters by one chip per area and switches between the revisions', () => {
    const filters = page.slice(page.indexOf('<div class="filters"'), page.indexOf('<table'));
    expect([...filters.matchAll(/data-filter="area" value="(\d*)"[^>]*>([^<]+)</g)].map((m) => m[2])).toEqual([
      'all',
      'lifecycle',
      'tools',
      'stateless',
      'base',
    ]);
    expect([...filters.matchAll(/data-filter="era" value="(\d*)"[^>]*>([^<]+)</g)].map((m) => [m[1], m[2]])).toEqual([
      ['', 'all'],
      ['0', '2026-07-28'],
      ['1', '2025-11-25'],
    ]);
    const data = JSON.parse(page.match(/<script type="application\/json" id="report-data">([^<]*)</)![1]) as {
      checks: { area: number; era: number }[];
    };
    expect(data.checks.map((c) => `${c.era}:${c.area}`)).toEqual([
      '0:0',
      '0:1',
      '0:1',
      '0:2',
      '0:3',
      '0:3',
      '0:3',
      '1:0',
      '1:1',
      '1:1',
      '1:3',
    ]);
  });
});

describe('the console’s closing lines of a dual-era run', () => {
  it('give each revision’s verdict, then each finding once with the revisions it is found on, the worst first', () => {
    expect(renderSides(sidesOf(DUAL)!, { color: false }).split('\n')).toEqual([
      'revisions   2026-07-28: fail · 2025-11-25: fail',
      'FAIL  tools/call/unknown-tool  on 2026-07-28',
      'FAIL  base/ping/answers  on 2026-07-28, 2025-11-25',
      'FAIL  base/process/alive  on 2026-07-28 (1 after it)',
      'WARN  tools/names/format  on 2026-07-28, 2025-11-25',
      '',
    ]);
  });

  it('say where a check’s verdicts differ between the revisions', () => {
    const warnThere = run(LEGACY.server, [check('tools/call/unknown-tool', 'warn')]);
    const lines = renderSides(sidesOf(sideBySide(['2026-07-28', STATELESS], ['2025-11-25', warnThere]))!, {
      color: false,
    });
    expect(lines).toContain('FAIL  tools/call/unknown-tool  on 2026-07-28; warn on 2025-11-25\n');
    expect(lines).toContain('revisions   2026-07-28: fail · 2025-11-25: pass\n');
  });
});

describe('junit.xml of a dual-era run', () => {
  it('keeps each revision’s areas as testsuites of their own, whose cases keep their revision', () => {
    const xml = renderJunit(DUAL);
    const suites = [...xml.matchAll(/<testsuite name="([^"]+)" tests="(\d+)" failures="(\d+)"/g)].map(
      (m) => `${m[1]} ${m[2]}/${m[3]}`,
    );
    expect(suites).toEqual([
      '2026-07-28/lifecycle 1/0',
      '2026-07-28/tools 2/1',
      '2026-07-28/stateless 1/0',
      '2026-07-28/base 3/3',
      '2025-11-25/lifecycle 1/0',
      '2025-11-25/tools 2/0',
      '2025-11-25/base 1/1',
    ]);
    expect(xml).toContain('<testcase classname="2025-11-25/tools" name="2025-11-25/tools/call/unknown-tool"');
  });
});

describe('the badge of a dual-era run', () => {
  const eras = (stateless: Status[], legacy: Status[]) =>
    sideBySide(
      [
        '2026-07-28',
        run(
          STATELESS.server,
          stateless.map((s, i) => check(`tools/c${i}`, s)),
        ),
      ],
      [
        '2025-11-25',
        run(
          LEGACY.server,
          legacy.map((s, i) => check(`tools/c${i}`, s)),
        ),
      ],
    );

  it('says the worst verdict and the revision that set it', () => {
    expect(badgeFor(eras(['fail', 'pass'], ['pass', 'pass']))).toEqual({
      label: 'MCP 2026-07-28',
      message: '1 failing',
      color: 'red',
    });
    expect(badgeFor(eras(['pass', 'warn'], ['fail', 'error']))).toEqual({
      label: 'MCP 2025-11-25',
      message: '1 failing',
      color: 'red',
    });
    expect(badgeFor(eras(['pass', 'error'], ['warn', 'pass']))).toEqual({
      label: 'MCP 2026-07-28',
      message: 'error',
      color: 'lightgrey',
    });
    expect(badgeFor(eras(['pass', 'pass'], ['warn', 'pass']))).toEqual({
      label: 'MCP 2025-11-25',
      message: 'conformant, 1 warning',
      color: 'yellow',
    });
  });

  it('names both revisions when both set it', () => {
    expect(badgeFor(eras(['fail', 'pass'], ['pass', 'fail']))).toEqual({
      label: 'MCP 2026-07-28 + 2025-11-25',
      message: '2 failing',
      color: 'red',
    });
    expect(badgeFor(eras(['pass'], ['pass']))).toEqual({
      label: 'MCP 2026-07-28 + 2025-11-25',
      message: 'conformant',
      color: 'green',
    });
  });
});
