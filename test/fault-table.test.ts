import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import _Ajv2020 from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { README, REWRITE_COMMAND, withTables } from './fixtures/servers/fault-table.mjs';
import {
  AUTH_FAULT_ROWS,
  FAULTS_FILE,
  FAULT_ROWS,
  HTTP_FAULT_ROWS,
  KNOWN_FAULTS,
  KNOWN_HTTP_FAULTS,
  STATELESS_HTTP_FAULT_ROWS,
} from './fault-rows.js';
import { ROOT } from './helpers.js';

const Ajv2020 = _Ajv2020 as unknown as typeof _Ajv2020.default;
const fixture = (name: string) => readFileSync(join(ROOT, 'test/fixtures/servers', name), 'utf8');
/** The fault names a fixture switches on: `on('name')`, `replyWith('name', …)`. */
const switched = (text: string) =>
  new Set([...text.matchAll(/(?<![.\w])(?:on|replyWith)\('([a-z0-9-]+)'/g)].map((m) => m[1]));

describe('the fault tables (test/fixtures/servers/faults.yaml)', () => {
  it('are data that keeps to faults.schema.json', () => {
    const validate = new Ajv2020({ allErrors: true }).compile(JSON.parse(fixture('faults.schema.json')));
    const valid = validate(parse(readFileSync(FAULTS_FILE, 'utf8')));
    expect(validate.errors ?? [], 'faults.yaml').toEqual([]);
    expect(valid).toBe(true);
  });

  it(`are what the fixtures README shows (\`${REWRITE_COMMAND}\` rewrites them)`, () => {
    const readme = readFileSync(README, 'utf8');
    expect(
      withTables(readme),
      `the tables of test/fixtures/servers/README.md are stale: \`${REWRITE_COMMAND}\` rewrites them from faults.yaml`,
    ).toBe(readme);
  });

  it('names each fault the faulty servers have a branch for, and no other', () => {
    for (const [name, known] of [
      ['faulty-server.mjs', KNOWN_FAULTS],
      ['faulty-http-server.mjs', KNOWN_HTTP_FAULTS],
    ] as const) {
      const text = fixture(name);
      expect(
        known.filter((fault) => !text.includes(`'${fault}'`)),
        `faults of ${name} without a branch`,
      ).toEqual([]);
      expect(
        [...switched(text)].filter((fault) => !known.includes(fault)),
        `branches of ${name} without a row`,
      ).toEqual([]);
    }
  });

  it('hold no row twice', () => {
    const tables = {
      stdio: FAULT_ROWS,
      http: HTTP_FAULT_ROWS,
      statelessHttp: STATELESS_HTTP_FAULT_ROWS,
      auth: AUTH_FAULT_ROWS,
    };
    const keys = Object.entries(tables).flatMap(([table, rows]) =>
      rows.map(({ why: _why, ...row }) => JSON.stringify([table, row])),
    );
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
});
