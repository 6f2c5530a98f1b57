import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSuite } from '../src/suite/suite.js';
import { ROOT } from './helpers.js';

/** The requirement catalogue the suite is held to (a sibling of the repository). */
const CATALOGUE = resolve(ROOT, '../shared/spec/requirements.md');
/** The project's own rows for the official extensions, in the same shape: every testable one must be covered. */
const EXTENSIONS = join(ROOT, 'cases/extensions.md');
/** Sections whose black-box rows every built-in suite must cover: base, lifecycle, capabilities, stdio, Streamable HTTP, authorization, features, utilities, JSON Schema, server→client requests, tasks, 2026-07-28. */
const SECTIONS = ['1.1', '1.2', '1.3', '1.4', '1.5', '1.6', '1.7', '1.8', '1.9', '1.10', '1.11', '1.12', '1.13', '1.14', '1.15', '1.16', '1.17', '1.18', '1.19', '1.20', '1.21'];

interface Row {
  section: string;
  id: string;
  blackBox: string;
}

/** Every table row of the catalogue's §1, with its section and Black-box test column. */
function catalogue(text: string): Row[] {
  const rows: Row[] = [];
  for (const section of text.split(/^### /m).slice(1)) {
    const number = section.split(' ')[0];
    const lines = section.split('\n').filter((l) => l.startsWith('|') && !/^\|[-\s|]+\|$/.test(l));
    if (lines.length < 2) continue;
    const cells = (line: string) => line.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim());
    // §1.21 calls the column "Black-box test / observable".
    const column = cells(lines[0]).findIndex((c) => c.startsWith('Black-box test'));
    for (const line of lines.slice(1)) rows.push({ section: number, id: cells(line)[0], blackBox: column >= 0 ? cells(line)[column] ?? '' : '' });
  }
  return rows;
}

/** A row a black-box client can test on an arbitrary server (not "—", not a fixture, not "not testable"). */
const testable = (r: Row) => r.blackBox !== '' && r.blackBox !== '—' && !/^(Fixture|Not testable|Cannot be forced)/.test(r.blackBox);

const haveCatalogue = existsSync(CATALOGUE);
if (!haveCatalogue && process.env.CI === 'true') throw new Error(`the requirement catalogue is missing (${CATALOGUE}); CI must provide it`);

describe.skipIf(!haveCatalogue)(`coverage of the requirement catalogue${haveCatalogue ? '' : ' (skipped: ../shared/spec/requirements.md not found)'}`, () => {
  const extensionRows = catalogue(readFileSync(EXTENSIONS, 'utf8'));
  const rows = [...(haveCatalogue ? catalogue(readFileSync(CATALOGUE, 'utf8')) : []), ...extensionRows];
  const exclusions = parse(readFileSync(join(ROOT, 'cases/excluded.yaml'), 'utf8')) as { id: string; reason: string }[];

  it('covers every black-box requirement by a check, case or property, or excludes it with a reason', async () => {
    const { checks, frameRules } = await loadSuite();
    const covered = new Set([...checks, ...frameRules].flatMap((c) => [c.requirement.id, ...(c.covers ?? [])]));
    const required = rows.filter((r) => (SECTIONS.includes(r.section) || extensionRows.includes(r)) && testable(r)).map((r) => r.id);
    const excluded = new Map(exclusions.map((e) => [e.id, e.reason]));
    expect(required.filter((id) => !covered.has(id) && !excluded.has(id))).toEqual([]);
    // An exclusion of a requirement that is covered (or not in the catalogue) is stale.
    expect(exclusions.filter((e) => covered.has(e.id) || !rows.some((r) => r.id === e.id)).map((e) => e.id)).toEqual([]);
    expect(exclusions.filter((e) => typeof e.reason !== 'string' || e.reason.length < 10).map((e) => e.id)).toEqual([]);
    console.log(`${checks.length + frameRules.length} checks (${checks.filter((c) => c.source).length} YAML cases) cover ${required.filter((id) => covered.has(id)).length} of ${required.length} black-box requirements; ${exclusions.length} excluded with a reason`);
  });

  it('keeps the extension rows apart from the catalogue\'s, each with a level and a link', () => {
    expect(extensionRows.length).toBeGreaterThan(0);
    const ids = extensionRows.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(rows.filter((r) => !extensionRows.includes(r) && ids.includes(r.id)).map((r) => r.id)).toEqual([]);
  });

  it('names only catalogue requirements (or the project\'s own schema.* ones)', async () => {
    const { checks, frameRules } = await loadSuite();
    const known = new Set(rows.map((r) => r.id));
    const unknown = [...checks, ...frameRules]
      .flatMap((c) => [c.requirement.id, ...(c.covers ?? [])].map((id) => `${c.id} → ${id}`))
      .filter((pair) => {
        const id = pair.split(' → ')[1];
        return !known.has(id) && !id.startsWith('schema.');
      });
    expect(unknown).toEqual([]);
  });
});
