import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTY, runCli } from '../helpers.js';

/** A valid case with the given id and steps. */
const kase = (id: string, steps: string) => `id: ${id}
title: a case
requirement:
  id: ping.respond
  level: MUST
  spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping#behavior-requirements
  text: ping is answered
steps:
${steps}`;

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mcpc-hostile-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe('hostile files given to the tool', () => {
  it('refuses a deeply nested case file at once, with one line naming file, line and column (exit 2)', async () => {
    for (const text of [
      '['.repeat(100_000) + ']'.repeat(100_000),
      Array.from({ length: 5000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n'),
    ]) {
      const dir = await folder({ 'deep.yaml': text });
      const t0 = performance.now();
      const r = await runCli(['list', '--cases', dir]);
      expect(performance.now() - t0).toBeLessThan(10_000);
      expect(r.exitCode).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/deep\.yaml:\d+:\d+: nested more than 200 levels deep/);
    }
  });

  it('does not follow symlinks out of a --cases folder, to files or to folders', async () => {
    // Outside: a broken case, which would end the run with exit 2 if it were read.
    const outside = await folder({ 'broken.yaml': 'id: [unclosed\n' });
    const dir = await folder({ 'mine.yaml': kase('mine/ping/ok', '  - request: ping\n    expect: { result: {} }\n') });
    await symlink(outside, join(dir, 'linked-folder'));
    await symlink(join(outside, 'broken.yaml'), join(dir, 'linked.yaml'));
    await mkdir(join(dir, 'sub'));
    const r = await runCli(['list', '--cases', dir]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('mine/ping/ok');
  });

  it('evaluates no code from a case file: tags, template text and prototype paths stay data', async () => {
    const marker = join(await mkdtemp(join(tmpdir(), 'mcpc-pwned-')), 'pwned');
    const js = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`;
    const dir = await folder({
      'evil.yaml': kase(
        'mine/ping/evil',
        `  - request: ping\n    params: { _meta: { a: !!js/function ${JSON.stringify(`function () { ${js} }`)}, b: ${JSON.stringify(`\${${js}}`)}, c: "{{ constructor }}" } }\n    expect: { result: {} }\n`,
      ),
    });
    const r = await runCli(['--only', 'mine/**', '--cases', dir, FAULTY]);
    expect(existsSync(marker)).toBe(false);
    // The case ran, its strings sent as they were written; the prototype path is no profile value.
    const check = r.report?.checks.find((c) => c.id === 'mine/ping/evil');
    expect(check?.message, r.stderr).toBe('the server profile has no constructor');
    expect(JSON.stringify(r.report)).not.toContain('[native code]');
  });
});
