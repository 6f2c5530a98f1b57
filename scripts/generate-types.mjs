// Generates TypeScript types from the project's JSON Schemas (schema/ is the source of truth).
import { compile, compileFromFile } from 'json-schema-to-typescript';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { basename, join } from 'node:path';

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
/** The Skills extension's definitions in the 2026-07-28 schema: those types only (the rest of it has no types). */
const SKILLS = [
  'SkillsExtensionSettings',
  'SkillResource',
  'Skill',
  'ListSkillsResult',
  'GetSkillResult',
  'ReadResourceDirectoryResult',
];

/** The 2026-07-28 schema's Skills definitions as one schema; its references to 2025-11-25 read from schema/mcp/. */
async function skillTypes(options) {
  const doc = JSON.parse(await readFile(join(root, 'schema/mcp/2026-07-28.schema.json'), 'utf8'));
  const local = {
    canRead: /^https:\/\/mcp-conformance\.dev\/schema\/mcp\//,
    read: (file) => readFile(join(root, 'schema/mcp', basename(new URL(file.url).pathname)), 'utf8'),
  };
  const { description: _whole, ...rest } = doc;
  const schema = { ...rest, title: 'Skills extension', anyOf: SKILLS.map((d) => ({ $ref: `#/$defs/${d}` })) };
  return compile(schema, 'SkillsExtension', { ...options, $refOptions: { resolve: { http: local } } });
}

export async function generate() {
  /** @type {Record<string, string>} */
  const files = {};
  const options = { bannerComment: banner, additionalProperties: false, style: { singleQuote: true } };
  for (const [input, output, extra = {}] of targets)
    files[output] = await compileFromFile(join(root, input), { ...options, cwd: join(root, 'schema'), ...extra });
  files['skills.ts'] = await skillTypes(options);
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await mkdir(out, { recursive: true });
  for (const [name, text] of Object.entries(await generate())) await writeFile(join(out, name), text);
}
