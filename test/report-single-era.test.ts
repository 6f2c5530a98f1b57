// A report of one revision renders byte for byte as recorded in test/fixtures/single-era/: the views of a report with
// several revisions side by side must leave it alone. A deliberate change of a renderer records them again with
// `npx vitest run test/report-single-era.test.ts -u`.
import { describe, expect, it } from 'vitest';
import { badgeFor, renderBadgeJson } from '../src/report/badge.js';
import { renderConsole } from '../src/report/console.js';
import { renderHtml } from '../src/report/html.js';
import { renderJunit } from '../src/report/junit.js';
import type { Report } from '../src/schema/generated/report.js';
import { fakeCheck } from './helpers.js';

const check = fakeCheck;

const SINGLE_ERA: Report = {
  runId: '00000000-0000-4000-8000-000000000001',
  tool: { name: 'mcp-conformance', version: '0.1.0' },
  target: { description: 'node server.mjs', command: 'node', args: ['server.mjs'] },
  server: {
    name: 'mcp-reference-server',
    version: '1.0.0',
    protocolVersion: '2025-11-25',
    capabilities: { tools: {}, resources: {}, logging: {} },
    counts: { tools: 3, resources: 1, prompts: 0 },
  },
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 4321,
  seed: 7,
  summary: { pass: 3, fail: 2, warn: 1, skip: 1, error: 1 },
  checks: [
    check('lifecycle/initialize/result', 'pass', {
      transcript: [{ seq: 0, dir: 'send', t: 0.5, bytes: 40, text: '{"jsonrpc":"2.0","id":1,"method":"initialize"}' }],
    }),
    check('base/ping/answers', 'pass'),
    check('tools/call/unknown-tool', 'fail', {
      expected: { error: { code: -32602 } },
      actual: { result: {} },
      transcript: [
        { seq: 1, dir: 'send', t: 1.2, bytes: 60, text: '{"jsonrpc":"2.0","id":2,"method":"tools/call"}' },
        { seq: 2, dir: 'recv', t: 3.4, bytes: 30, text: '{"jsonrpc":"2.0","id":2,"result":{}}' },
      ],
    }),
    check('tools/call/after-crash', 'fail', { after: 'tools/call/unknown-tool' }),
    check('tools/names/format', 'warn', { expected: '^[A-Za-z0-9_.-]{1,128}$', actual: ['bad name!'] }),
    check('tools/call/skipped', 'skip', { message: 'tool calls disabled' }),
    check('resources/read/unknown-uri', 'error', { message: 'harness error' }),
    check('resources/list/result', 'pass', { baseline: { entry: 'resources/list/*', reason: 'tracked upstream' } }),
  ],
};

describe('a single-era report', () => {
  it('renders index.html as recorded', async () => {
    await expect(renderHtml(SINGLE_ERA)).toMatchFileSnapshot('fixtures/single-era/index.html');
  });
  it('renders the console as recorded', async () => {
    await expect(renderConsole(SINGLE_ERA, { color: false, paths: ['reports/report.json'] })).toMatchFileSnapshot(
      'fixtures/single-era/console.txt',
    );
    await expect(renderConsole(SINGLE_ERA, { color: true, verbose: true })).toMatchFileSnapshot(
      'fixtures/single-era/console-verbose.txt',
    );
  });
  it('renders junit.xml as recorded', async () => {
    await expect(renderJunit(SINGLE_ERA)).toMatchFileSnapshot('fixtures/single-era/junit.xml');
  });
  it('renders badge.json as recorded', async () => {
    await expect(renderBadgeJson(badgeFor(SINGLE_ERA))).toMatchFileSnapshot('fixtures/single-era/badge.json');
  });
});
