import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCases, parseCase } from '../../src/checks/cases/load.js';
import { ConfigError } from '../../src/config/yaml-file.js';
import { globToRegExp } from '../../src/suite/glob.js';
import { loadSuite } from '../../src/suite/suite.js';
import { FAULTY, REFERENCE, ROOT, runCli, runCliHere } from '../helpers.js';

const HEADER = `# yaml-language-server: $schema=../../schema/case.schema.json
id: mine/echo/hello
title: echo says hello
requirement:
  id: tools.call.shape
  level: MUST
  spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#calling-tools
  text: A tool call returns a CallToolResult
`;

async function caseDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mcpc-cases-'));
  await mkdir(join(dir, 'mine'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, 'mine', name), text);
  return dir;
}

const errorOf = (file: string, text: string) => {
  try {
    parseCase(file, text);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('no error');
};

describe('case files', () => {
  it('loads the built-in suite with unique ids and a requirement each', async () => {
    const { checks } = await loadSuite();
    const cases = checks.filter((c) => c.source);
    expect(cases.length).toBeGreaterThan(20);
    for (const c of cases)
      expect(c.requirement.spec).toMatch(/^https:\/\/modelcontextprotocol\.io\/specification\/.+#/);
  });

  it('names file, line, column and field for a typo in a key', () => {
    const message = errorOf('typo.yaml', `${HEADER}steps:\n  - request: ping\n    expct: { result: {} }\n`);
    expect(message).toBe('typo.yaml:11:5: steps[0].expct: unknown key');
  });

  it('names file and line for bad indentation', () => {
    const message = errorOf('indent.yaml', `${HEADER}steps:\n  - request: ping\n   expect: { result: {} }\n`);
    expect(message).toMatch(/^indent\.yaml:11:\d+: /);
    expect(message.split('\n')).toHaveLength(1);
  });

  it('refuses an alias bomb', () => {
    const bomb = `a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n`;
    expect(errorOf('bomb.yaml', bomb)).toMatch(/^bomb\.yaml:1:1: .*alias/i);
  });

  it('names the field of a wrong value and an unknown matcher operator', () => {
    expect(
      errorOf('level.yaml', HEADER.replace('level: MUST', 'level: MUSTY') + 'steps:\n  - request: ping\n'),
    ).toMatch(/^level\.yaml:6:10: requirement\.level: must be one of MUST, SHOULD, MAY$/);
    expect(
      errorOf('op.yaml', `${HEADER}steps:\n  - request: ping\n    expect: { result: { $tpye: object } }\n`),
    ).toMatch(/^op\.yaml:11:\d+: steps\[0\]\.expect\.result\.\$tpye: unknown operator/);
  });

  it('keeps notifications and raw lines off the shared session', () => {
    expect(errorOf('shared.yaml', `${HEADER}steps:\n  - notify: notifications/x\n`)).toMatch(
      /steps\[0\]\.notify: needs session fresh or uninitialized/,
    );
  });

  it('rejects a user case whose id repeats a built-in one', async () => {
    const dir = await caseDir({
      'dup.yaml': HEADER.replace('mine/echo/hello', 'ping/respond') + 'steps:\n  - request: ping\n',
    });
    await expect(loadSuite({ caseDirs: [dir] })).rejects.toThrow(/ping\/respond/);
    await expect(loadCases([join(dir, 'nope')])).rejects.toThrow(/case folder not found/);
  });

  it('selects checks by id and glob', () => {
    expect(globToRegExp('tools/**').test('tools/call/unknown-tool')).toBe(true);
    expect(globToRegExp('tools/*').test('tools/call/unknown-tool')).toBe(false);
    expect(globToRegExp('*/call/*').test('tools/call/unknown-tool')).toBe(true);
  });
});

describe('the CLI with case files', () => {
  it('stops at a malformed case with one line and exit 2, before starting any server', async () => {
    const dir = await caseDir({ 'typo.yaml': `${HEADER}steps:\n  - request: ping\n    expct: {}\n` });
    const r = await runCliHere(['--cases', dir, '--env', 'MCP_FAULTS=banner', FAULTY]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('typo.yaml:11:5: steps[0].expct: unknown key');
    expect(r.report).toBeUndefined();
  });

  it('runs a user case and reports it like a built-in one', async () => {
    const dir = await caseDir({
      'add.yaml':
        HEADER.replace('mine/echo/hello', 'mine/add/sum') +
        'requires: { capabilities: [tools] }\nsteps:\n  - request: tools/call\n    params: { name: add, arguments: { a: 2, b: 3 } }\n    expect: { result: { structuredContent: { sum: 5 } } }\n',
      'wrong.yaml':
        HEADER.replace('mine/echo/hello', 'mine/add/wrong') +
        'steps:\n  - request: tools/call\n    params: { name: add, arguments: { a: 2, b: 3 } }\n    expect: { result: { structuredContent: { sum: 6 } } }\n',
    });
    const r = await runCli(['--cases', dir, '--only', 'mine/**', FAULTY]);
    expect(r.report?.checks.find((c) => c.id === 'mine/add/sum')?.status).toBe('pass');
    const wrong = r.report?.checks.find((c) => c.id === 'mine/add/wrong');
    expect(wrong?.status).toBe('fail');
    expect(wrong?.message).toContain('$.result.structuredContent.sum: 5 is not 6');
    expect(r.exitCode).toBe(1);
  });

  it("calls only the tools the run's policy lets calls reach (--tool-calls, --allow-tool), and says why it left one out", async () => {
    const cases = ['--cases', join(ROOT, 'test/fixtures/cases/tool-policy'), '--only', 'policy/**', REFERENCE];
    const [safe, allowed, all, none] = await Promise.all(
      [[], ['--allow-tool', 'write-note'], ['--tool-calls', 'all'], ['--tool-calls', 'none']].map((flags) =>
        runCli([...flags, ...cases]),
      ),
    );
    const verdicts = (r: typeof safe) =>
      Object.fromEntries(
        r.report!.checks.map((c) => [c.id.slice('policy/tools/'.length), `${c.status}: ${c.message}`]),
      );
    const notReadOnly = 'not annotated readOnlyHint: true (allow it with --allow-tool write-note, or --tool-calls all)';
    // index-docs runs only as a task: a plain tools/call of it is never made, whatever the policy.
    const taskOnly = 'index-docs: tools/call index-docs not made: it can only be called as a task';
    expect(verdicts(safe)).toEqual({
      add: 'pass: tools/call: as expected',
      each: `pass: 10 tools checked; left out: write-note: tools/call write-note not made: ${notReadOnly}; ${taskOnly}`,
      'write-note': `skip: tools/call write-note not made: ${notReadOnly}`,
      'raw-write-note': `skip: tools/call write-note not made: ${notReadOnly}`,
    });
    for (const r of [allowed, all]) {
      expect(verdicts(r)).toEqual({
        add: 'pass: tools/call: as expected',
        each: `pass: 11 tools checked; left out: ${taskOnly}`,
        'write-note': 'pass: tools/call: as expected',
        'raw-write-note': 'pass: the line: as expected',
      });
    }
    expect(verdicts(none)).toEqual({
      add: 'skip: tools/call add not made: tool calls are off (--tool-calls none)',
      each: 'skip: echo: tools/call echo not made: tool calls are off (--tool-calls none)',
      'write-note': 'skip: tools/call write-note not made: tool calls are off (--tool-calls none)',
      'raw-write-note': 'skip: tools/call write-note not made: tool calls are off (--tool-calls none)',
    });
    // The server saw no call it should not have: its transcript holds none.
    const called = (r: typeof safe) =>
      r
        .report!.checks.flatMap((c) => c.transcript ?? [])
        .filter((e) => e.dir === 'send' && e.text.includes('"tools/call"')).length;
    expect([called(none), called(safe), called(all)]).toEqual([0, 11, 14]);
  });

  it('lists the whole suite', async () => {
    const r = await runCliHere(['list']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/prompts\/get\/unknown-prompt\s+SHOULD\s+case\s+prompts\.get\.unknown/);
    // What each check applies to, as declared: the run skips it elsewhere with the reason.
    expect(r.stdout).toMatch(/\ntools\/names\/format .*  \[needs: tools capability; every revision\]\n/);
    expect(r.stdout).toMatch(/\ntasks\/list\/invalid-cursor .*  \[needs: tasks capability; revision 2025-11-25\]\n/);
    expect(r.stdout).toMatch(/\nlogging\/set-level\/each-level .*  \[needs: logging capability\]\n/);
    expect(r.stdout).toMatch(/\nlifecycle\/shutdown\/stdin-close .*  \[needs: stdio transport; every revision\]\n/);
    expect(r.stdout).toMatch(/\d+ checks \(\d+ cases, \d+ frame rules\), covering \d+ requirement ids/);
    // --server, as the official suite means it, names the server scenarios (our areas) first, then the same list.
    const server = (await runCliHere(['list', '--server'])).stdout;
    expect(server).toMatch(/^Server scenarios \(areas\): .*\btools\b.*\n\n/);
    expect(server.endsWith(r.stdout)).toBe(true);
  });

  it('lists every client scenario (tier, revisions, what it asks) and every client-side check', async () => {
    const { CLIENT_CHECKS, CLIENT_SCENARIOS } = await import('../../src/checks/client-side/index.js');
    const { CLIENT_AUTH_CHECKS } = await import('../../src/checks/client-side/auth.js');
    const { SCENARIOS } = await import('../../src/auth/scenarios.js');
    const r = await runCliHere(['list', '--client']);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    const row = (name: string) => lines.find((l) => l.startsWith(`${name} `))?.split(/ {2,}/);
    expect(row('tools_call')).toEqual([
      'tools_call',
      'core',
      '2025-11-25, 2026-07-28',
      'call add_numbers with two numbers',
    ]);
    expect(row('sse-retry')).toEqual(['sse-retry', 'core', '2025-11-25', 'call test_reconnection', '[http only]']);
    expect(row('auth/iss-supported')?.slice(0, 3)).toEqual(['auth/iss-supported', 'core', '2026-07-28']);
    expect(row('auth/metadata-default')?.slice(0, 3)).toEqual([
      'auth/metadata-default',
      'core',
      '2025-11-25, 2026-07-28',
    ]);
    expect(row('auth/dpop')?.slice(0, 2)).toEqual(['auth/dpop', 'extension']);
    for (const s of [...CLIENT_SCENARIOS, ...SCENARIOS]) expect(row(s.name), s.name).toBeDefined();
    for (const c of [...CLIENT_CHECKS, ...CLIENT_AUTH_CHECKS]) expect(row(c.id)?.[1], c.id).toBe(c.requirement.level);
    expect(lines.find((l) => l.startsWith('client-side/stateless/version-retry '))).toMatch(
      /\[needs: scenario request-metadata; revision 2026-07-28\]$/,
    );
    // --only narrows the checks, never the scenarios.
    const only = await runCliHere(['list', '--client', '--only', 'client-side/http/*']);
    expect(only.stdout).toMatch(/^initialize /m);
    expect(only.stdout).not.toMatch(/^client-side\/frames\//m);
    expect(only.stdout).toMatch(/^client-side\/http\/accept /m);
  });

  it('answers an unknown client --scenario with the nearest name, authorization scenarios included', async () => {
    const r = await runCliHere([
      'client',
      '--scenario',
      'auth/metdata-default',
      '--scenario',
      'tool_call',
      '--',
      'true',
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('unknown scenario auth/metdata-default (did you mean auth/metadata-default?)');
    expect(r.stderr).toContain('tool_call (did you mean tools_call?)');
    expect(r.stderr).toContain('mcp-conformance list --client');
  });
});
