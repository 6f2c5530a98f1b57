import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureDir, OutputError, writeFileSet } from '../src/report/output.js';

const NAMES = ['report.json', 'junit.xml', 'index.html', 'badge.svg', 'badge.json'];
const setOf = (id: string) => Object.fromEntries(NAMES.map((name) => [name, `${id} ${'x'.repeat(50_000)}`]));
const idsIn = async (dir: string) =>
  Promise.all(NAMES.map(async (name) => (await readFile(join(dir, name), 'utf8')).split(' ')[0]));

describe('writeFileSet', () => {
  it("leaves one writer's complete set when several write the same folder at once, and no temporary file", async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'mcpc-set-')), 'reports');
    for (let round = 0; round < 10; round++) {
      await Promise.all(['a', 'b', 'c', 'd'].map((id) => writeFileSet(dir, setOf(`${id}${round}`))));
      const ids = await idsIn(dir);
      expect(new Set(ids).size, ids.join(' ')).toBe(1);
    }
    expect((await readdir(dir)).sort()).toEqual([...NAMES].sort());
  });

  it('takes over a lock whose run has exited', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpc-set-'));
    await writeFile(join(dir, '.mcp-conformance.lock'), '2147483646');
    await writeFileSet(dir, setOf('after'));
    expect(await idsIn(dir)).toEqual(NAMES.map(() => 'after'));
    expect(await readdir(dir)).not.toContain('.mcp-conformance.lock');
  });

  it('fails in one OutputError naming the folder, and creates parents without looping where the system refuses them', async () => {
    await expect(writeFileSet('/proc/nope/reports', setOf('x'))).rejects.toThrow(
      new OutputError('/proc/nope/reports: cannot write reports into this folder (ENOENT: no such file or directory)'),
    );
    await expect(ensureDir('/proc/nope/a/b')).rejects.toMatchObject({ code: 'ENOENT' });
    const deep = join(await mkdtemp(join(tmpdir(), 'mcpc-set-')), 'a', 'b', 'c');
    await ensureDir(deep);
    await ensureDir(deep);
    expect(await readdir(deep)).toEqual([]);
  });
});
