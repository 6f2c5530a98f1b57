// Generates TypeScript types from the project's JSON Schemas (schema/ is the source of truth).
import { compileFromFile } from 'json-schema-to-typescript';
import { writeFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'src/schema/generated');
/** @type {[schema: string, output: string, extra?: Partial<import('json-schema-to-typescript').Options>][]} */
const targets = [
  ['schema/report.schema.json', 'report.ts'],
  ['schema/config.schema.json', 'config.ts'],
  ['schema/case.schema.json', 'case.ts'],
  ['schema/matrix-servers.schema.json', 'matrix-servers.ts'],
  ['schema/matrix.schema.json', 'matrix.ts'],
  ['schema/catalogue.schema.json', 'catalogue.ts'],
  // The MCP schema's root only holds $defs: emit every definition.
  ['schema/mcp/2025-11-25.schema.json', 'mcp-2025-11-25.ts', { unreachableDefinitions: true }],
];
const banner = '/* Generated from schema/ by `npm run generate`. Do not edit. */';

export async function generate() {
  const files = {};
  for (const [input, output, extra = {}] of targets) {
    files[output] = await compileFromFile(join(root, input), {
      bannerComment: banner,
      cwd: join(root, 'schema'),
      additionalProperties: false,
      style: { singleQuote: true },
      ...extra,
    });
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await mkdir(out, { recursive: true });
  for (const [name, text] of Object.entries(await generate())) await writeFile(join(out, name), text);
}
