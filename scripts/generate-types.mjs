// Generates TypeScript types from the project's JSON Schemas (schema/ is the source of truth).
import { compileFromFile } from 'json-schema-to-typescript';
import { writeFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'src/schema/generated');
const targets = [
  ['schema/report.schema.json', 'report.ts'],
];
const banner = '/* Generated from schema/ by `npm run generate`. Do not edit. */';

export async function generate() {
  const files = {};
  for (const [input, output] of targets) {
    files[output] = await compileFromFile(join(root, input), {
      bannerComment: banner,
      cwd: join(root, 'schema'),
      additionalProperties: false,
      style: { singleQuote: true },
    });
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await mkdir(out, { recursive: true });
  for (const [name, text] of Object.entries(await generate())) await writeFile(join(out, name), text);
}
