// docs/checks/ is the suite's own explanation of every check: it must match the suite and the catalogue as they are.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REGENERATE, checkReference } from '../src/explain/reference.js';
import { ROOT } from './helpers.js';

const DIR = join(ROOT, 'docs/checks');

describe('the check reference (docs/checks/)', () => {
  it('is current', async () => {
    const files = await checkReference();
    const stale = `docs/checks/ differs from the suite: \`${REGENERATE}\` regenerates it`;
    expect(readdirSync(DIR).sort(), stale).toEqual([...files.keys()].sort());
    for (const [name, text] of files) expect(readFileSync(join(DIR, name), 'utf8'), `${name}: ${stale}`).toBe(text);
  });
});
