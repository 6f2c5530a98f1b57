// The reference server's reports at a fixed seed, check for check (ids, order, statuses, messages, expected and
// actual), against the recorded ones: a change of structure must not change a verdict. A change of behaviour records
// them all again with the command the failure names (`npm run golden` also compares server-everything's and others).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fingerprintNow, goldenFile, RECORD_COMMAND } from '../scripts/golden-reports.mjs';

describe.concurrent('reports at --seed 5', () => {
  // The dual-era servers' and server-everything's runs wait out timeouts, and under load the faulty server's request-id
  // property may send one value more or less: the script compares those.
  for (const name of ['reference-stdio', 'reference-http']) {
    it(`reports as recorded: ${name}`, async () => {
      const recorded = `test/fixtures/golden/${name}.json`;
      const stale = `the report differs from ${recorded}: if the change is meant, \`${RECORD_COMMAND}\` re-records every golden report`;
      expect(JSON.parse((await fingerprintNow(name)) as string), stale).toEqual(
        JSON.parse(readFileSync(goldenFile(name) as string, 'utf8')),
      );
    }, 60_000);
  }
});
