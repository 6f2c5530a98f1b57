// What `init` finds in a server's project, and the files it writes from it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { IMAGE, detectEntry } from '../src/init/detect.js';
import { badgeMarkdown, configFile, workflowFile } from '../src/init/files.js';

const project = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpc-detect-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};

describe('init: the server of a project', () => {
  it('takes package.json bin (the one named as the package), else main, and builds with npm', () => {
    const bin = detectEntry(
      project({
        'package.json': JSON.stringify({
          name: '@acme/srv',
          bin: { other: 'x.js', srv: 'dist/srv.js' },
          scripts: { build: 'tsc' },
        }),
        'package-lock.json': '{}',
      }),
    );
    expect(bin).toMatchObject({ target: './dist/srv.js', from: 'package.json bin "srv": dist/srv.js' });
    expect(bin?.setup.at(-1)).toEqual({ run: 'npm ci && npm run build' });
    const main = detectEntry(project({ 'package.json': JSON.stringify({ main: './index.js' }) }));
    expect(main).toMatchObject({
      target: './index.js',
      setup: [{ uses: 'actions/setup-node@v4' }, { run: 'npm install' }],
    });
  });

  it('takes the first [project.scripts] of pyproject.toml, run by uv', () => {
    const entry = detectEntry(
      project({
        'pyproject.toml':
          '[project]\nname = "weather"\n\n[project.scripts]\nweather-mcp = "weather.server:main"\n\n[tool.uv]\n',
      }),
    );
    expect(entry).toMatchObject({ command: ['uv', 'run', 'weather-mcp'], setup: [{ uses: 'astral-sh/setup-uv@v6' }] });
  });

  it("takes a Dockerfile's CMD: the workflow builds the image, the suite runs it with stdin open", () => {
    const entry = detectEntry(project({ Dockerfile: 'FROM node:20\nCOPY . .\nCMD ["node", "dist/index.js"]\n' }));
    expect(entry).toMatchObject({
      command: ['docker', 'run', '-i', '--rm', IMAGE],
      from: 'Dockerfile CMD ["node", "dist/index.js"]',
    });
    expect(entry?.setup).toEqual([{ run: `docker build -t ${IMAGE} .` }]);
    expect(detectEntry(project({ 'README.md': '# nothing here' }))).toBeUndefined();
    expect(() => detectEntry(project({ 'package.json': '{ "bin": ' }))).toThrow(/package\.json: .*JSON/);
  });

  it('writes a config the schema accepts and a workflow that uses the Action', async () => {
    const entry = detectEntry(project({ 'pyproject.toml': '[project.scripts]\ns = "m:main"\n' }))!;
    const config = parse(configFile(entry));
    expect(config).toEqual({
      $schema: 'https://mcp-conformance.dev/schema/config.schema.json',
      command: ['uv', 'run', 's'],
      expectedFailures: 'conformance-baseline.yaml',
      out: 'reports',
    });
    const { configValidator } = await import('../src/config/config.js');
    expect(configValidator()(config)).toBe(true);
    const workflow = parse(workflowFile(entry, 'acme/mcp-conformance@v1'));
    const steps = workflow.jobs.conformance.steps as { uses?: string; with?: Record<string, unknown> }[];
    expect(steps.map((s) => s.uses).filter(Boolean)).toEqual([
      'actions/checkout@v4',
      'astral-sh/setup-uv@v6',
      'acme/mcp-conformance@v1',
      'actions/upload-artifact@v4',
    ]);
    expect(workflow.jobs.conformance.permissions['security-events']).toBe('write');
    expect(badgeMarkdown('acme/srv')).toBe(
      '![MCP conformance](https://img.shields.io/endpoint?url=https%3A%2F%2Fraw.githubusercontent.com%2Facme%2Fsrv%2Fmcp-conformance-badge%2Fbadge.json)',
    );
  });
});
