import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { README, withTable } from './fixtures/servers/fault-table.mjs';
import { FAULT_ROWS, KNOWN_FAULTS } from './fixtures/servers/faults.mjs';
import { ROOT } from './helpers.js';

type Row = [fault: string, check: string | null, status: 'fail' | 'warn' | null, why: string, options?: object];
const rows = FAULT_ROWS as Row[];

describe('the fault table (test/fixtures/servers/faults.mjs)', () => {
  it('is what the fixtures README shows (node test/fixtures/servers/fault-table.mjs rewrites it)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(withTable(readme)).toBe(readme);
  });

  it('names each fault the faulty server has a branch for, and no other', () => {
    const server = readFileSync(join(ROOT, 'test/fixtures/servers/faulty-server.mjs'), 'utf8');
    const branches = new Set([...server.matchAll(/\bon\('([a-z0-9-]+)'\)/g)].map((m) => m[1]));
    expect([...KNOWN_FAULTS].sort()).toEqual([...branches].sort());
  });

  it('gives every row a verdict and a reason, and no row twice', () => {
    const bad = rows.filter(([fault, check, status, why]) => !/^[a-z0-9-]+$/.test(fault) || (check === null) !== (status === null) || ![null, 'fail', 'warn'].includes(status) || why.trim() === '');
    expect(bad).toEqual([]);
    const keys = rows.map(([fault, check, , , options]) => JSON.stringify([fault, check, options]));
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
});
