// Where a server project's MCP server starts: what `init` puts in the config file, and how CI builds it first.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config/yaml-file.js';

/** A detected (or given) server entry. */
export interface Entry {
  /** The config's `target` (a path or URL) or `command`. */
  target?: string;
  command?: string[];
  /** What it was found from, for the console and the config's comment. */
  from: string;
  /** The workflow's steps before the suite runs: set-up actions and the build. */
  setup: { uses?: string; with?: Record<string, string>; run?: string; name?: string }[];
}

/** The image name the workflow builds a Dockerfile into. */
export const IMAGE = 'mcp-server-under-test';

function readJson(path: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(`${path}: ${(err as Error).message}`);
  }
}

/** `bin` (a path, or the entry named as the package, else the first), else `main`, of a package.json. */
function fromPackageJson(dir: string): Entry | undefined {
  const path = join(dir, 'package.json');
  if (!existsSync(path)) return undefined;
  const pkg = readJson(path);
  const bin = pkg.bin;
  const name = String(pkg.name ?? '').replace(/^@[^/]+\//, '');
  let file: string | undefined;
  let from: string | undefined;
  if (typeof bin === 'string') [file, from] = [bin, 'package.json bin'];
  else if (bin && typeof bin === 'object') {
    const bins = bin as Record<string, string>;
    const key = name in bins ? name : Object.keys(bins)[0];
    if (key !== undefined) [file, from] = [bins[key], `package.json bin "${key}"`];
  }
  if (file === undefined && typeof pkg.main === 'string') [file, from] = [pkg.main, 'package.json main'];
  if (file === undefined || from === undefined) return undefined;
  const scripts = (pkg.scripts ?? {}) as Record<string, string>;
  const lock = existsSync(join(dir, 'package-lock.json'));
  const install = lock ? 'npm ci' : 'npm install';
  return {
    target: `./${file.replace(/^\.\//, '')}`,
    from: `${from}: ${file}`,
    setup: [
      { uses: 'actions/setup-node@v4', with: { 'node-version': '20' } },
      { run: scripts.build ? `${install} && npm run build` : install },
    ],
  };
}

/** The first of `[project.scripts]` in a pyproject.toml: run with uv, which installs the project first. */
function fromPyproject(dir: string): Entry | undefined {
  const path = join(dir, 'pyproject.toml');
  if (!existsSync(path)) return undefined;
  const text = readFileSync(path, 'utf8');
  const section = /^\[project\.scripts\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(text)?.[1] ?? '';
  const script = /^\s*["']?([A-Za-z0-9_.-]+)["']?\s*=\s*["']([^"']+)["']/m.exec(section);
  if (!script) return undefined;
  return {
    command: ['uv', 'run', script[1]],
    from: `pyproject.toml [project.scripts] ${script[1]} = "${script[2]}"`,
    setup: [{ uses: 'astral-sh/setup-uv@v6' }],
  };
}

/** A Dockerfile's CMD or ENTRYPOINT: the image is built, then run with stdin open. */
function fromDockerfile(dir: string): Entry | undefined {
  const path = join(dir, 'Dockerfile');
  if (!existsSync(path)) return undefined;
  const lines = readFileSync(path, 'utf8').split('\n');
  const start = lines.reverse().find((l) => /^\s*(CMD|ENTRYPOINT)\s/i.test(l));
  if (!start) return undefined;
  return {
    command: ['docker', 'run', '-i', '--rm', IMAGE],
    from: `Dockerfile ${start.trim()}`,
    setup: [{ run: `docker build -t ${IMAGE} .` }],
  };
}

/** The server of the project in `dir`: package.json, then pyproject.toml, then a Dockerfile; undefined: none found. */
export function detectEntry(dir: string): Entry | undefined {
  return fromPackageJson(dir) ?? fromPyproject(dir) ?? fromDockerfile(dir);
}
