import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTY, REFERENCE } from '../helpers.js';
import { type Step, action, runAction, runStep } from './run-action.js';

describe('action.yml', () => {
  it('is a composite action that installs the suite in its own folder and maps every output from the run step', () => {
    expect(action.runs.using).toBe('composite');
    const install = action.runs.steps.find((s) => s.run?.startsWith('npm ci'));
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
    expect(install?.['working-directory']).toBe('${{ github.action_path }}');
    for (const [name, output] of Object.entries(action.outputs))
      expect(output.value).toBe(`\${{ steps.run.outputs.${name} }}`);
    // Inputs reach the script through its environment only: nothing is spliced into the shell text.
    expect(runStep.run).not.toContain('${{');
    // node-version and upload-sarif are for the setup and upload steps.
    for (const name of Object.keys(action.inputs).filter((n) => n !== 'node-version' && n !== 'upload-sarif')) {
      expect(Object.values(runStep.env ?? {})).toContain(`\${{ inputs.${name} }}`);
    }
  });
});

describe.concurrent('the action’s run step, executed as GitHub would', () => {
  it('passes the reference server and sets every output it declares', async () => {
    const r = await runAction({ target: REFERENCE });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    // `worse` is set only with a baseline-report.
    expect(Object.keys(r.outputs).sort()).toEqual(
      expect.arrayContaining(
        Object.keys(action.outputs)
          .filter((o) => o !== 'worse')
          .sort(),
      ),
    );
    expect(r.outputs.worse).toBeUndefined();
    expect(r.outputs).toMatchObject({
      verdict: 'pass',
      fail: '0',
      error: '0',
      reports: 'reports',
      'report-json': join('reports', 'report.json'),
    });
    await expect(readFile(join(r.workspace, r.outputs['report-json']), 'utf8')).resolves.toContain('"checks"');
    expect(r.summary).toMatch(/^## ✅ MCP conformance: pass\n/);
    expect(r.outputs['report-sarif']).toBe(join('reports', 'report.sarif'));
  });

  it('uploads report.sarif to code scanning when asked, even after a failing run', () => {
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@')) as Step & {
      if?: string;
      with?: Record<string, string>;
    };
    expect(upload.if).toBe("always() && inputs.upload-sarif == 'true' && steps.run.outputs.report-sarif != ''");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
    expect(upload.with?.sarif_file).toBe('${{ steps.run.outputs.report-sarif }}');
    expect(action.inputs['upload-sarif'].default).toBe('false');
  });

  it('gives the outputs, summary and annotations of both eras together for a dual-era server', async () => {
    const r = await runAction({
      command: `"${process.execPath}" "${join(REFERENCE, 'server.mjs')}" --revision all`,
      args: '--seed 1',
    });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.outputs).toMatchObject({
      verdict: 'pass',
      fail: '0',
      reports: 'reports',
      'report-json': join('reports', 'report.json'),
      'report-junit': join('reports', 'junit.xml'),
    });
    const report = JSON.parse(await readFile(join(r.workspace, r.outputs['report-json']), 'utf8')) as {
      checks: { id: string }[];
    };
    expect(new Set(report.checks.map((c) => c.id.split('/')[0]))).toEqual(new Set(['2026-07-28', '2025-11-25']));
    expect(Number(r.outputs.pass) + Number(r.outputs.skip)).toBe(report.checks.length);
    expect(r.summary.match(/^## /gm)).toHaveLength(1);
    await expect(readFile(join(r.workspace, 'reports', '2026-07-28', 'badge.svg'), 'utf8')).resolves.toContain('<svg');
  });

  it('runs a command line with extra args and an expected-failures file', async () => {
    const baseline = join(await mkdtemp(join(tmpdir(), 'mcpc-action-bl-')), 'baseline.yaml');
    await writeFile(baseline, '- id: base/method-not-found\n  reason: known\n');
    const r = await runAction({
      command: `"${process.execPath}" "${FAULTY}"`,
      args: '--env MCP_FAULTS=method-not-found-code --timeout 5',
      'expected-failures': baseline,
      out: 'conformance',
    });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.outputs).toMatchObject({ verdict: 'pass', fail: '1', expected: '1', stale: '0', reports: 'conformance' });
    expect(r.stdout).toMatch(/^::notice title=base\/method-not-found%3A /m);
  });

  it('puts what changed since a baseline report in the step summary, and says whether it got worse', async () => {
    const only = '--only base/method-not-found --only ping/respond --seed 1 --runs 10';
    const before = await runAction({ target: FAULTY, args: only });
    expect(before.exitCode, before.stdout + before.stderr).toBe(0);
    const baselineReport = join(before.workspace, 'reports', 'report.json');
    const r = await runAction({
      target: FAULTY,
      args: `${only} --env MCP_FAULTS=method-not-found-code`,
      'baseline-report': baselineReport,
    });
    expect(r.exitCode).toBe(1);
    expect(r.outputs.worse).toBe('true');
    expect(r.summary).toContain('## ❌ MCP conformance: what changed');
    expect(r.summary).toMatch(
      /### New failures \(1\)\n\n\| check \| was \| now \| requirement \| message \|\n.*\n\| `base\/method-not-found` .* \| PASS \| FAIL \| \[base\\.method\\-not\\-found\]\(https:\/\/modelcontextprotocol\.io\/specification\/2025-11-25\/basic#responses\) \(MUST\) \|/,
    );
    const diff = JSON.parse(await readFile(join(r.workspace, 'reports', 'diff.json'), 'utf8')) as {
      worse: boolean;
      newFailures: { id: string }[];
    };
    expect(diff).toMatchObject({ worse: true, newFailures: [{ id: 'base/method-not-found' }] });
    // Fixed again: not worse; and a baseline report that is not there yet (main's first run) is a warning only.
    const again = await runAction({ target: FAULTY, args: only, 'baseline-report': join(r.workspace, 'reports') });
    expect(again.exitCode).toBe(0);
    expect(again.outputs.worse).toBe('false');
    expect(again.summary).toContain('### Fixed (1)');
    const missing = await runAction({
      target: FAULTY,
      args: only,
      'baseline-report': join(r.workspace, 'no-such-report.json'),
    });
    expect(missing.exitCode).toBe(0);
    expect(missing.stdout).toContain('::warning title=baseline-report::no report at ');
  });

  it('fails the step under strict: true, with annotations and a summary', async () => {
    const r = await runAction({ target: FAULTY, strict: 'true', args: '--env MCP_FAULTS=bad-tool-name' });
    expect(r.exitCode).toBe(1);
    expect(r.outputs).toMatchObject({ verdict: 'fail', fail: '1', warn: '0' });
    expect(r.stdout).toMatch(/^::error title=tools\/names\/format%3A /m);
    expect(r.summary).toContain('#### FAIL `tools/names/format`');
  });
});
