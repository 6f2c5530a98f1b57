// `mcp-conformance init` in a copy of a server's project: the three files, never overwritten without --force, and the
// workflow's Action step runs the suite on the server it found.
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLI, REFERENCE } from '../helpers.js';
import { runAction } from './run-action.js';

const init = (dir: string, ...args: string[]) =>
  execa(process.execPath, [CLI, 'init', '--dir', dir, ...args], {
    reject: false,
    env: { NO_COLOR: '1' },
    timeout: 120_000,
  });

interface Workflow {
  jobs: Record<string, { steps: { id?: string; uses?: string; with?: Record<string, unknown>; run?: string }[] }>;
}

describe('mcp-conformance init', () => {
  it('writes the config, the workflow and the baseline; the workflow runs the suite on the server', async () => {
    const project = await mkdtemp(join(tmpdir(), 'mcpc-init-'));
    await cp(REFERENCE, project, { recursive: true });
    const r = await init(project);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('server      ./server.mjs (package.json bin "mcp-reference-server": server.mjs)');
    for (const file of [
      'mcp-conformance.config.yaml',
      '.github/workflows/mcp-conformance.yml',
      'conformance-baseline.yaml',
    ])
      expect(r.stdout).toContain(`wrote       ${file}`);
    // The run: the reference server passes, so there is nothing to record.
    expect(r.stdout).toMatch(/^PASS {2}\d+ checks: /m);
    expect(r.stdout).not.toContain('--update-baseline');
    const config = parse(await readFile(join(project, 'mcp-conformance.config.yaml'), 'utf8'));
    expect(config).toMatchObject({ $schema: expect.stringMatching(/config\.schema\.json$/), target: './server.mjs' });
    expect(parse(await readFile(join(project, 'conformance-baseline.yaml'), 'utf8'))).toEqual([]);

    // The workflow's Action step, run as GitHub would in the project's checkout.
    const workflow = parse(await readFile(join(project, '.github/workflows/mcp-conformance.yml'), 'utf8')) as Workflow;
    const steps = workflow.jobs.conformance.steps;
    const mcp = steps.find((s) => s.id === 'mcp')!;
    expect(mcp.with).toMatchObject({ config: 'mcp-conformance.config.yaml', 'upload-sarif': true });
    expect(steps.some((s) => s.uses?.startsWith('actions/upload-artifact') && s.with?.path === 'reports/')).toBe(true);
    expect(steps.some((s) => s.run?.includes('badge.json'))).toBe(true);
    const inputs = Object.fromEntries(Object.entries(mcp.with ?? {}).map(([k, v]) => [k, String(v)]));
    const run = await runAction(inputs, project);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.outputs.verdict).toBe('pass');
    expect(Number(run.outputs.pass)).toBeGreaterThan(50);
  }, 240_000);

  it('keeps files that exist unless --force, and offers --update-baseline when the run fails', async () => {
    const project = await mkdtemp(join(tmpdir(), 'mcpc-init-'));
    await writeFile(join(project, 'mcp-conformance.config.yaml'), 'target: ./mine.js\n');
    // No package.json: the server is named; it answers nothing, so the run fails.
    const kept = await init(project, '--', process.execPath, '-e', 'setTimeout(() => {}, 60000)', '--timeout', '1');
    expect(kept.stdout).toContain('kept        mcp-conformance.config.yaml (it exists; --force overwrites it)');
    expect(await readFile(join(project, 'mcp-conformance.config.yaml'), 'utf8')).toBe('target: ./mine.js\n');
    const none = await init(await mkdtemp(join(tmpdir(), 'mcpc-init-')), '--no-run');
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(
      /^mcp-conformance: init: no server found in .*\): name it with --target, --url or -- <command>$/,
    );
    const forced = await init(project, '--force', '--', process.execPath, '-e', "process.stdout.write('hello\\n')");
    expect(forced.stdout).toContain('wrote       mcp-conformance.config.yaml');
    expect(forced.stdout).toContain('--update-baseline');
    expect(forced.exitCode).toBe(0);
  }, 240_000);
});
