#!/usr/bin/env node
// Writes docs/checks/ (the generated check reference) from the built suite: `npm run check-reference`.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { checkReference } from '../dist/explain/reference.js';

const DIR = fileURLToPath(new URL('../docs/checks', import.meta.url));
mkdirSync(DIR, { recursive: true });
const files = await checkReference();
for (const name of readdirSync(DIR)) if (!files.has(name)) rmSync(join(DIR, name));
for (const [name, text] of files) writeFileSync(join(DIR, name), text);
console.log(`wrote ${files.size} files to docs/checks/`);
