import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import _Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { badgeFor, renderBadgeJson, renderBadgeSvg, writeBadge } from '../src/report/badge.js';
import type { CheckResult, Report, Status } from '../src/schema/generated/report.js';

// CommonJS modules with `exports.default` (as in src/schema/validators.ts).
const Ajv2020 = _Ajv2020.default;

/** The shields.io endpoint response (https://shields.io/badges/endpoint-badge): required fields and the types of the rest. */
const SHIELDS_ENDPOINT = {
  type: 'object',
  required: ['schemaVersion', 'label', 'message'],
  properties: {
    schemaVersion: { const: 1 },
    label: { type: 'string' },
    message: { type: 'string', minLength: 1 },
    color: { type: 'string', minLength: 1 },
    labelColor: { type: 'string' },
    isError: { type: 'boolean' },
    namedLogo: { type: 'string' },
    logoSvg: { type: 'string' },
    logoColor: { type: 'string' },
    style: { enum: ['plastic', 'flat', 'flat-square', 'for-the-badge', 'social'] },
    cacheSeconds: { type: 'integer' },
  },
  additionalProperties: false,
};
const validateEndpoint = new Ajv2020({ strict: true }).compile(SHIELDS_ENDPOINT);

function check(status: Status, over: Partial<CheckResult> = {}): CheckResult {
  return {
    id: `tools/call/${status}-${Math.random().toString(36).slice(2, 8)}`,
    title: status,
    area: 'tools',
    status,
    level: status === 'warn' ? 'SHOULD' : 'MUST',
    requirement: { id: 'x', level: 'MUST', spec: 'https://modelcontextprotocol.io/specification', text: 'x' },
    message: status,
    durationMs: 1,
    ...over,
  };
}

function report(
  statuses: Status[],
  server: Report['server'] | null = { protocolVersion: '2025-11-25', capabilities: {} },
): Report {
  const checks = statuses.map((s) => check(s));
  return {
    tool: { name: 'mcp-conformance', version: '0.1.0' },
    target: { description: './server' },
    ...(server && { server }),
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    summary: { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 },
    checks,
  };
}

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('the badge', () => {
  const cases: [string, Report, { label: string; message: string; color: string }][] = [
    ['pass', report(['pass', 'pass', 'skip']), { label: 'MCP 2025-11-25', message: 'conformant', color: 'green' }],
    [
      'pass with warnings',
      report(['pass', 'warn', 'warn']),
      { label: 'MCP 2025-11-25', message: 'conformant, 2 warnings', color: 'yellow' },
    ],
    [
      'fail',
      report(['pass', 'fail', 'fail', 'fail', 'warn', 'error']),
      { label: 'MCP 2025-11-25', message: '3 failing', color: 'red' },
    ],
    ['error', report(['pass', 'error']), { label: 'MCP 2025-11-25', message: 'error', color: 'lightgrey' }],
    ['no server', report(['fail'], null), { label: 'MCP', message: '1 failing', color: 'red' }],
  ];

  for (const [name, r, expected] of cases) {
    it(`says ${JSON.stringify(expected.message)} (${expected.color}) for a ${name} report, as SVG and as a shields endpoint`, async () => {
      expect(badgeFor(r)).toEqual(expected);
      const dir = await mkdtemp(join(tmpdir(), 'mcp-badge-'));
      dirs.push(dir);
      const paths = await writeBadge(r, dir);
      expect((await readdir(dir)).sort()).toEqual(['badge.json', 'badge.svg']);

      const svg = await readFile(paths.svg, 'utf8');
      expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(svg).toContain(`<title>${expected.label}: ${expected.message}</title>`);
      expect(svg).toContain(`>${expected.label}</text>`);
      expect(svg).toContain(`>${expected.message}</text>`);

      const json: unknown = JSON.parse(await readFile(paths.json, 'utf8'));
      expect(validateEndpoint(json), JSON.stringify(validateEndpoint.errors)).toBe(true);
      expect(json).toEqual({ schemaVersion: 1, ...expected });
    });
  }

  it('counts expected failures apart, and a stale baseline entry as failing', () => {
    const listed = { baseline: { entry: 'tools/**', reason: 'known' } };
    const expectedOnly = { ...report([]), checks: [check('pass'), check('fail', listed), check('fail', listed)] };
    expect(badgeFor(expectedOnly)).toMatchObject({ message: '2 expected failures', color: 'yellow' });
    const stale = { ...report([]), checks: [check('pass', listed), check('fail', listed)] };
    expect(badgeFor(stale)).toMatchObject({ message: '1 failing', color: 'red' });
  });

  it('keeps a hostile revision short and escaped', () => {
    const r = report(['pass'], { protocolVersion: `<script>&\u001b${'9'.repeat(100)}`, capabilities: {} });
    const badge = badgeFor(r);
    expect(badge.label.length).toBeLessThan(60);
    expect(badge.label).toContain('\\x1b');
    const svg = renderBadgeSvg(badge);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;&amp;');
    expect(JSON.parse(renderBadgeJson(badge)).label).toBe(badge.label);
  });
});
