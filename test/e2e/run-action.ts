// Runs action.yml's main step as GitHub would (its tests, and init's workflow).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { expect } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../helpers.js';

export interface Step {
  id?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}

export interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

export const action = parse(await readFile(join(ROOT, 'action.yml'), 'utf8')) as Action;
export const runStep = action.runs.steps.find((s) => s.id === 'run')!;

/** Parses `$GITHUB_OUTPUT` as the runner does (`name<<delimiter` blocks, or `name=value`). */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$|^([\w-]+)=(.*)$/gm))
    out[m[1] ?? m[4]] = m[3] ?? m[5];
  return out;
}

/**
 * Runs the action's main step as GitHub would: `${{ inputs.x }}` in its env replaced by the input (or its default),
 * the script run by bash in the workspace, with the runner's variables and files.
 */
export async function runAction(inputs: Record<string, string>, workspace?: string) {
  workspace ??= await mkdtemp(join(tmpdir(), 'mcpc-action-'));
  const [summary, output] = [join(workspace, '.summary.md'), join(workspace, '.output')];
  const env = Object.fromEntries(
    Object.entries(runStep.env ?? {}).map(([name, value]) => {
      const input = /^\$\{\{ inputs\.([\w-]+) \}\}$/.exec(value)?.[1];
      expect(input, `${name} is an input`).toBeDefined();
      return [name, inputs[input!] ?? action.inputs[input!]?.default ?? ''];
    }),
  );
  const script = join(workspace, '.step.sh');
  await writeFile(script, runStep.run!);
  const r = await execa('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
    cwd: workspace,
    reject: false,
    timeout: 120_000,
    env: {
      ...env,
      GITHUB_ACTIONS: 'true',
      GITHUB_ACTION_PATH: ROOT,
      GITHUB_WORKSPACE: workspace,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_OUTPUT: output,
      NO_COLOR: '1',
    },
  });
  return {
    exitCode: r.exitCode,
    stdout: String(r.stdout),
    stderr: String(r.stderr),
    workspace,
    summary: await readFile(summary, 'utf8').catch(() => ''),
    outputs: parseOutputs(await readFile(output, 'utf8').catch(() => '')),
  };
}
