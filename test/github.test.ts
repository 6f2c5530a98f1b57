import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  codeBlock,
  escapeData,
  escapeProperty,
  md,
  renderAnnotations,
  renderOutputs,
  renderStepSummary,
  withoutCommands,
} from '../src/report/github.js';
import { summarize } from '../src/report/summary.js';
import type { CheckResult, Report, Status } from '../src/schema/generated/report.js';
import { FAULTY, runCli } from './helpers.js';

/** What a hostile server might put in its name or its answers: markup, Markdown, a table cell break, a fake command. */
const HOSTILE =
  '<img src=x onerror=alert(1)></script> **bold** [link](http://evil.example) | cell\n::error::forged %0A `tick` 100%';

function check(id: string, status: Status, over: Partial<CheckResult> = {}): CheckResult {
  return {
    id,
    title: `checks ${id}`,
    area: id.split('/')[0],
    status,
    level: 'MUST',
    requirement: {
      id: 'base.x',
      level: 'MUST',
      spec: 'https://modelcontextprotocol.io/specification/2025-11-25/basic#x',
      text: 'The server does x',
    },
    message: `${status}: ${HOSTILE}`,
    expected: { code: -32601 },
    actual: { code: -32603, message: HOSTILE },
    durationMs: 3,
    ...over,
  };
}

function report(checks: CheckResult[]): Report {
  return {
    tool: { name: 'mcp-conformance', version: '0.1.0' },
    target: { description: 'srv.js' },
    server: { name: HOSTILE, version: '1.0', protocolVersion: '2025-11-25', capabilities: {} },
    startedAt: new Date(0).toISOString(),
    durationMs: 1234,
    summary: summarize(checks),
    checks,
  };
}

/** Parses `$GITHUB_OUTPUT` as the runner does (`name<<delimiter` blocks). */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2\n/gm)) out[m[1]] = m[3];
  return out;
}

describe('escaping for GitHub', () => {
  it('escapes workflow command data and properties by the runner’s rules', () => {
    expect(escapeData('50% done\r\nnext')).toBe('50%25 done%0D%0Anext');
    expect(escapeProperty('a: b, c%\n')).toBe('a%3A b%2C c%25%0A');
  });

  it('keeps server strings inert in Markdown: no HTML, emphasis, link, cell break or line break', () => {
    const text = md(HOSTILE);
    expect(text).not.toMatch(/<|\n|(?<!\\)[*[\]|`]/);
    expect(text).toContain('&lt;img src\\=x onerror\\=alert\\(1\\)&gt;&lt;\\/script&gt;');
  });

  it('fences code with more backticks than the code holds', () => {
    expect(codeBlock(['a ```` b'])).toBe('`````\na ```` b\n`````');
    expect(codeBlock(['plain'])).toBe('```\nplain\n```');
  });

  it('wraps text so the runner reads no workflow command in it', () => {
    const wrapped = withoutCommands('line\n  ::error::forged\n');
    const [first, ...rest] = wrapped.trimEnd().split('\n');
    const token = /^::stop-commands::(\S+)$/.exec(first)?.[1];
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    expect(rest.at(-1)).toBe(`::${token}::`);
  });
});

describe('the step summary, annotations and outputs', () => {
  const checks = [
    check('base/method-not-found', 'fail'),
    check('tools/names/format', 'warn'),
    check('ping/respond', 'pass', { baseline: { entry: 'ping/respond', reason: 'was broken' } }),
    check('resources/read/unknown-uri', 'fail', { baseline: { entry: 'resources/**', reason: 'not yet' } }),
    check('prompts/get/unknown-prompt', 'skip'),
  ];
  const r = report(checks);

  it('summarises verdict, totals, areas and each failure with its requirement and expected vs actual', () => {
    const summary = renderStepSummary(r);
    expect(summary).toMatch(/^## ❌ MCP conformance: fail\n/);
    expect(summary).toContain('| area | pass | fail | warn | skip | error |');
    expect(summary).toContain('| base | 0 | 1 | 0 | 0 | 0 |');
    expect(summary).toContain('### Failures (1)');
    expect(summary).toContain('#### FAIL `base/method-not-found`');
    expect(summary).toContain('**requirement** base\\.x \\(MUST\\) https\\:\\/\\/modelcontextprotocol\\.io');
    expect(summary).toContain('**expected**\n\n```\n{\n  "code": -32601\n}\n```');
    expect(summary).toContain('### Stale expected failures');
    expect(summary).toContain('### Expected failures (1)');
    // Outside code blocks (whose text GitHub shows literally) no server string is markup.
    const prose = summary.replace(/^(`{3,})\n[\s\S]*?\n\1$/gm, '');
    expect(prose).not.toMatch(/<img|<\/script|\]\(http/);
    expect(summary).toContain('"message": "<img src=x');
  });

  it('annotates failures and stale entries as errors, warnings as warnings, expected failures as notices', () => {
    const lines = renderAnnotations(r).trimEnd().split('\n');
    expect(lines.map((l) => /^::(\w+) title=([^:]+)/.exec(l)?.slice(1))).toEqual([
      ['error', 'base/method-not-found%3A checks base/method-not-found'],
      ['warning', 'tools/names/format%3A checks tools/names/format'],
      ['error', 'ping/respond%3A stale expected failure'],
      ['notice', 'resources/read/unknown-uri%3A checks resources/read/unknown-uri'],
    ]);
    expect(lines[0]).toContain('requirement:%0A  base.x (MUST)');
    expect(lines[0]).toContain('%0A  ::error::forged %250A');
    expect(lines[2]).toContain('remove the entry');
  });

  it('writes outputs any value can pass through', () => {
    const outputs = parseOutputs(renderOutputs(r, { reports: 'out dir', 'report-json': 'out dir/report.json' }));
    expect(outputs).toEqual({
      verdict: 'fail',
      pass: '1',
      fail: '2',
      warn: '1',
      skip: '1',
      error: '0',
      expected: '1',
      stale: '1',
      reports: 'out dir',
      'report-json': 'out dir/report.json',
    });
  });
});

describe('the CLI in GitHub Actions', () => {
  it('writes the step summary, the outputs and annotations, with the console text shielded', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpc-gha-'));
    const [summaryFile, outputFile] = [join(dir, 'summary.md'), join(dir, 'output')];
    await writeFile(summaryFile, '# earlier step\n');
    // The two checks the faults trip: one failure, one warning.
    const r = await runCli(
      [
        '--only',
        'base/method-not-found',
        '--only',
        'tools/names/format',
        '--env',
        'MCP_FAULTS=method-not-found-code,bad-tool-name',
        FAULTY,
      ],
      {
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: summaryFile,
        GITHUB_OUTPUT: outputFile,
      },
    );
    expect(r.exitCode).toBe(1);
    const summary = await readFile(summaryFile, 'utf8');
    expect(summary).toMatch(/^# earlier step\n## ❌ MCP conformance: fail\n/);
    expect(summary).toContain('#### FAIL `base/method-not-found`');
    const outputs = parseOutputs(await readFile(outputFile, 'utf8'));
    expect(outputs).toMatchObject({ verdict: 'fail', fail: '1', warn: '1', error: '0', reports: r.out });
    for (const key of ['report-json', 'report-junit', 'report-html']) expect(existsSync(outputs[key]), key).toBe(true);
    expect(r.stdout).toMatch(/^::stop-commands::(\S+)\n[\s\S]*\n::\1::\n/);
    expect(r.stdout).toMatch(/^::error title=base\/method-not-found%3A .*::requirement:%0A/m);
    expect(r.stdout).toMatch(/^::warning title=tools\/names\/format%3A /m);
  });

  it('does none of it outside GitHub Actions', async () => {
    const r = await runCli(['--only', 'base/method-not-found', '--env', 'MCP_FAULTS=method-not-found-code', FAULTY]);
    expect(r.stdout).not.toContain('::');
  });
});
