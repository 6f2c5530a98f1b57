import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generate } from '../scripts/generate-types.mjs';

describe('generated types', () => {
  it('src/schema/generated/ matches what schema/ generates (run `npm run generate` after editing a schema)', async () => {
    const files = (await generate()) as Record<string, string>;
    expect(Object.keys(files)).toEqual(expect.arrayContaining(['report.ts', 'mcp-2025-11-25.ts']));
    for (const [name, text] of Object.entries(files)) {
      const committed = await readFile(new URL(`../src/schema/generated/${name}`, import.meta.url), 'utf8');
      expect(committed, `src/schema/generated/${name} is stale`).toBe(text);
    }
  });
});
