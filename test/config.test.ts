import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPTIONS, helpText, parseCli } from '../src/cli/options.js';
import { CONFIG_FILE, loadConfig } from '../src/config/config.js';
import { resolveOptions } from '../src/config/options.js';
import { ConfigError } from '../src/config/yaml-file.js';
import { SCHEMA_REVISIONS } from '../src/schema/validators.js';
import { folderWith, ROOT } from './helpers.js';

const OPTIONS_PAGE = join(ROOT, 'docs/configuration.md');

/** docs/configuration.md's fenced block that follows `marker`. */
async function readmeBlock(marker: string): Promise<string> {
  const text = await readFile(OPTIONS_PAGE, 'utf8');
  const from = text.indexOf(marker);
  expect(from, `docs/configuration.md has ${marker}`).toBeGreaterThan(-1);
  return /```\w*\n([\s\S]*?)```/.exec(text.slice(from))![1];
}

describe('the config file', () => {
  it('accepts the complete example of docs/configuration.md, which sets every key (target is the alternative to command)', async () => {
    const dir = await folderWith({ [CONFIG_FILE]: await readmeBlock('## Config file') });
    const config = await loadConfig(join(dir, CONFIG_FILE));
    const schema = JSON.parse(await readFile(join(ROOT, 'schema/config.schema.json'), 'utf8')) as {
      properties: Record<string, unknown>;
    };
    expect(Object.keys(config).sort()).toEqual(
      Object.keys(schema.properties)
        .filter((k) => k !== '$schema' && k !== 'target')
        .sort(),
    );
  });

  it('makes its relative paths absolute against its own folder, and leaves URLs alone', async () => {
    const dir = await folderWith({
      'sub/a.yaml': 'target: ./server.js\ncwd: ..\nout: r\nexpectedFailures: base.yaml\ncases: [my-cases]\n',
      'sub/b.yaml': 'target: http://localhost:3000/mcp\n',
    });
    expect(await loadConfig(join(dir, 'sub/a.yaml'))).toEqual({
      target: join(dir, 'sub/server.js'),
      cwd: dir,
      out: join(dir, 'sub/r'),
      expectedFailures: join(dir, 'sub/base.yaml'),
      cases: [join(dir, 'sub/my-cases')],
    });
    expect((await loadConfig(join(dir, 'sub/b.yaml'))).target).toBe('http://localhost:3000/mcp');
  });

  it('treats an empty file as an empty config', async () => {
    const dir = await folderWith({ [CONFIG_FILE]: '# nothing yet\n' });
    expect(await loadConfig(join(dir, CONFIG_FILE))).toEqual({});
  });

  for (const [what, text, message] of [
    ['an unknown key', 'target: x\ntimout: 5\n', ':2:9: timout: unknown key'],
    ['a wrong type', 'timeout: soon\n', ':1:10: timeout: must be number'],
    ['a timeout of zero', 'timeout: 0\n', ':1:10: timeout: must be > 0'],
    ['a nested value', 'env:\n  A: [1]\n', ':2:6: env.A: must be string,number,boolean'],
    ['an unknown revision', 'revision: 2024-01-01\n', ':1:11: revision: must be one of 2026-07-28, 2025-11-25'],
    [
      'both target and command',
      'target: x\ncommand: [node, y]\n',
      ':2:10: command: give either target or command, not both',
    ],
    ['a syntax error', 'env: {A: 1\n', ':2:1:'],
    [
      'an alias bomb',
      `a: &a [x, x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 12 }, (_, i) => `l${i}: [${'*a, '.repeat(10)}*a]`).join('\n')}\n`,
      ':1:1: Excessive alias count',
    ],
  ]) {
    it(`names file, line and field for ${what}`, async () => {
      const dir = await folderWith({ [CONFIG_FILE]: text });
      const err = await loadConfig(join(dir, CONFIG_FILE)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain(`${CONFIG_FILE}${message}`);
      expect((err as Error).message.split('\n')).toHaveLength(1);
    });
  }

  it('lists the revisions the project knows, and all and auto', async () => {
    const schema = JSON.parse(await readFile(join(ROOT, 'schema/config.schema.json'), 'utf8')) as {
      properties: { revision: { enum: string[] } };
    };
    expect(schema.properties.revision.enum).toEqual([...SCHEMA_REVISIONS, 'all', 'auto']);
  });
});

describe('options over the config file', () => {
  it('override it key by key, env variable by variable; a target replaces its command', async () => {
    const dir = await folderWith({
      'c.yaml': 'command: [node, server.js]\nenv: {A: 1, B: two}\ntimeout: 5\nstrict: true\nout: r\n',
    });
    const resolved = await resolveOptions({
      config: join(dir, 'c.yaml'),
      target: 'x.js',
      env: { B: 'three' },
      strict: false,
    });
    expect(resolved).toMatchObject({
      target: 'x.js',
      command: undefined,
      env: { A: '1', B: 'three' },
      timeoutMs: 5000,
      budgetMs: 300_000,
      strict: false,
      out: join(dir, 'r'),
    });
  });

  it("add secret names to the file's: a flag never shows what the file hides", async () => {
    const dir = await folderWith({ 'c.yaml': 'secrets: [DB_URL, SHARED]\n' });
    expect(
      (await resolveOptions({ config: join(dir, 'c.yaml'), target: 'x.js', secrets: ['SHARED', 'OTHER'] })).secrets,
    ).toEqual(['DB_URL', 'SHARED', 'OTHER']);
    expect(parseCli(['--secret', 'A', '--secret', 'B', 'srv']).options).toEqual({ target: 'srv', secrets: ['A', 'B'] });
  });

  it('from the command line: flags set only what they name', () => {
    expect(parseCli(['--timeout', '2.5', '--env', 'A=1', '--no-strict', 'srv']).options).toEqual({
      target: 'srv',
      timeout: 2.5,
      env: { A: '1' },
      strict: false,
    });
    expect(parseCli(['--shard', '1/3', '--', 'node', 's.js']).options).toEqual({
      target: ['node', 's.js'],
      shard: '1/3',
    });
  });

  it('are checked like the config file, with one line naming the option', async () => {
    await expect(resolveOptions({ target: 'x', timeout: -1 })).rejects.toThrow('option timeout: must be > 0');
    await expect(resolveOptions({ target: 'x', toolCall: 'all' } as never)).rejects.toThrow(
      'option toolCall: unknown key',
    );
    await expect(resolveOptions({ target: 'x', shard: '3/2' })).rejects.toThrow(
      'option shard: must be i/n with 1 ≤ i ≤ n, not "3/2"',
    );
  });
});

describe('the option table', () => {
  it('is what docs/configuration.md lists, option for option', async () => {
    const text = await readFile(OPTIONS_PAGE, 'utf8');
    const section = text.slice(text.indexOf('## Options'), text.indexOf('\n## ', text.indexOf('## Options') + 1));
    const documented = [...section.matchAll(/^\| (.+?) \|/gm)]
      .map((m) => m[1])
      .filter((cell) => cell !== 'option' && !cell.startsWith('---'));
    const flags = documented.flatMap((cell) =>
      [...cell.matchAll(/`(?:-\w, )?--([a-z-]+)(?: ([A-Z=/]+))?`/g)].map((m) => `--${m[1]}${m[2] ? ` ${m[2]}` : ''}`),
    );
    const table = Object.entries(OPTIONS).map(([name, o]) => `--${name}${'arg' in o ? ` ${o.arg}` : ''}`);
    // `--no-X` is the negation parseArgs derives from a boolean option.
    expect(flags.filter((f) => !f.startsWith('--no-')).sort()).toEqual(table.sort());
  });

  it('drives --help', () => {
    for (const name of Object.keys(OPTIONS)) expect(helpText()).toContain(`--${name}`);
  });
});
