import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { README, withTables } from './fixtures/servers/fault-table.mjs';
import { AUTH_FAULT_ROWS, FAULT_ROWS, HTTP_FAULT_ROWS, KNOWN_FAULTS, KNOWN_HTTP_FAULTS, STATELESS_HTTP_FAULT_ROWS } from './fixtures/servers/faults.mjs';
import { ROOT } from './helpers.js';

type Row = [fault: string, check: string | null, status: 'fail' | 'warn' | null, why: string, options?: object];
const rows = [...FAULT_ROWS, ...HTTP_FAULT_ROWS, ...STATELESS_HTTP_FAULT_ROWS, ...AUTH_FAULT_ROWS] as Row[];
const fixture = (name: string) => readFileSync(join(ROOT, 'test/fixtures/servers', name), 'utf8');
/** The fault names a fixture switches on: `on('name')`, `replyWith('name', …)`. */
const switched = (text: string) => new Set([...text.matchAll(/(?<![.\w])(?:on|replyWith)\('([a-z0-9-]+)'/g)].map((m) => m[1]));

describe('the fault tables (test/fixtures/servers/faults.mjs)', () => {
  it('are what the fixtures README shows (node test/fixtures/servers/fault-table.mjs rewrites them)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(withTables(readme)).toBe(readme);
  });

  it('names each fault the faulty servers have a branch for, and no other', () => {
    for (const [name, known] of [['faulty-server.mjs', KNOWN_FAULTS], ['faulty-http-server.mjs', KNOWN_HTTP_FAULTS]] as const) {
      const text = fixture(name);
      expect(known.filter((fault) => !text.includes(`'${fault}'`)), `faults of ${name} without a branch`).toEqual([]);
      expect([...switched(text)].filter((fault) => !known.includes(fault)), `branches of ${name} without a row`).toEqual([]);
    }
  });

  it('give every row a verdict and a reason, and no row twice', () => {
    const bad = rows.filter(([fault, check, status, why]) => !/^[a-z0-9-]+$/.test(fault) || (check === null) !== (status === null) || ![null, 'fail', 'warn'].includes(status) || why.trim() === '');
    expect(bad).toEqual([]);
    const keys = [FAULT_ROWS, HTTP_FAULT_ROWS, STATELESS_HTTP_FAULT_ROWS].flatMap((table, i) => (table as Row[]).map(([fault, check, , , options]) => JSON.stringify([i, fault, check, options])));
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
});
