#!/usr/bin/env node
// The data `mcp-conformance explain` reads, generated at build time (`npm run build`) into dist/explain-data.json:
// the requirement catalogue's rows and the fault table's rows by check id. Neither catalogue/ nor
// test/fixtures/servers/faults.yaml is in the published package; this file, inside dist/, is.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path) => parse(readFileSync(join(ROOT, path), 'utf8'));

const FIELDS = ['level', 'levelNote', 'revisions', 'link', 'text', 'test', 'expected', 'source'];
const catalogue = read('catalogue/requirements.yaml');
const requirements = Object.fromEntries(
  catalogue.requirements.map((row) => [
    row.id,
    Object.fromEntries(FIELDS.filter((f) => row[f] !== undefined).map((f) => [f, row[f]])),
  ]),
);

/** Fault rows by the check they trip: which faulty server (its table), the fault, the verdict, and why. */
const faults = {};
for (const [table, rows] of Object.entries(read('test/fixtures/servers/faults.yaml'))) {
  for (const row of rows ?? []) {
    if (!row.check) continue;
    (faults[row.check] ??= []).push({ table, fault: row.fault, expect: row.expect, why: row.why });
    for (const also of row.also ?? []) {
      const [check, expect] = also.split(/:\s*/);
      (faults[check] ??= []).push({ table, fault: row.fault, expect, why: row.why });
    }
  }
}

// The reference client's faults, one table of rows like the servers'.
for (const row of read('test/fixtures/clients/faults.yaml').faults ?? []) {
  (faults[row.check] ??= []).push({ table: 'clients', fault: row.fault, expect: row.expect, why: row.why });
}

// The reference OAuth client's faults (the authorization checks), read the same way.
for (const row of read('test/fixtures/clients/auth-faults.yaml').faults ?? []) {
  (faults[row.check] ??= []).push({ table: 'clients-auth', fault: row.fault, expect: row.expect, why: row.why });
}

mkdirSync(join(ROOT, 'dist'), { recursive: true });
writeFileSync(join(ROOT, 'dist/explain-data.json'), `${JSON.stringify({ requirements, faults })}\n`);
