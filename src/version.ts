import { readFileSync } from 'node:fs';

/** The tool's own name and version, from package.json (two levels up from src/ and dist/). */
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

export const TOOL = { name: pkg.name, version: pkg.version };
