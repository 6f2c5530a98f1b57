// The CLI as a process with a config file: the one in its working directory, --config, and flags over it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { CONFIG_FILE } from '../../src/config/config.js';
import type { Report } from '../../src/schema/generated/report.js';
import { CLI, FAULTY, folderWith, REFERENCE, statusOf } from '../helpers.js';

/** Runs the built CLI in `cwd`, as a user in that folder would. */
async function cliIn(cwd: string, args: string[]) {
  const r = await execa(process.execPath, [CLI, ...args], {
    cwd,
    reject: false,
    env: { NO_COLOR: '1', GITHUB_ACTIONS: '' },
    timeout: 120_000,
  });
  const report = await readFile(join(cwd, 'reports', 'report.json'), 'utf8').then(
    (t) => JSON.parse(t) as Report,
    () => undefined,
  );
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr), report };
}

describe.concurrent('the CLI with a config file', () => {
  // One check each: what is tested is where the options come from, not the suite.
  const strictFaulty = `target: ${JSON.stringify(FAULTY)}\nenv:\n  MCP_FAULTS: bad-tool-name\nstrict: true\nonly: [tools/names/format]\n`;

  it(`finds ./${CONFIG_FILE} in the working directory`, async () => {
    const r = await cliIn(await folderWith({ [CONFIG_FILE]: strictFaulty }), []);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(statusOf(r.report, 'tools/names/format')).toBe('fail');
  });

  it('lets flags override it', async () => {
    const r = await cliIn(await folderWith({ [CONFIG_FILE]: strictFaulty }), ['--no-strict']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(statusOf(r.report, 'tools/names/format')).toBe('warn');
  });

  it('takes --config FILE, whose target a command line target replaces', async () => {
    const dir = await folderWith({
      'conf/c.yaml': `target: ./missing.js\ntimeout: 5\nonly: [lifecycle/initialize/result]\n`,
    });
    const r = await cliIn(dir, ['--config', 'conf/c.yaml', REFERENCE]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.report?.target.description).toBe(REFERENCE);
  });

  it('exits 2 with one line naming file, line and field for a bad config', async () => {
    const r = await cliIn(
      await folderWith({ [CONFIG_FILE]: `target: ${JSON.stringify(REFERENCE)}\nbudget: "300"\n` }),
      [],
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe(`mcp-conformance: ${CONFIG_FILE}:2:9: budget: must be number`);
  });
});
