import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import _Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Catalogue, CatalogueRequirement } from '../src/schema/generated/catalogue.js';
import { AUTHZ_CHECKS } from '../src/checks/authz/checks.js';
import { CLIENT_AUTH_CHECKS } from '../src/checks/client-side/auth.js';
import { loadSuite } from '../src/suite/suite.js';
import { CLIENT_CHECKS } from '../src/checks/client-side/index.js';
import { ROOT } from './helpers.js';

const Ajv2020 = _Ajv2020 as unknown as typeof _Ajv2020.default;

/** The requirement catalogue the suite is held to: the project's own data. */
const CATALOGUE = join(ROOT, 'catalogue/requirements.yaml');

/** A row a black-box client can test on an arbitrary server (not "—", not a fixture, not "not testable"). */
const testable = (r: CatalogueRequirement) =>
  r.test !== '—' && !/^(Fixture|Not testable|Cannot be forced)/.test(r.test);

describe('coverage of the requirement catalogue', () => {
  const catalogue = parse(readFileSync(CATALOGUE, 'utf8')) as Catalogue;
  const rows = catalogue.requirements;
  const exclusions = parse(readFileSync(join(ROOT, 'cases/excluded.yaml'), 'utf8')) as { id: string; reason: string }[];

  it('keeps to schema/catalogue.schema.json', () => {
    const validate = new Ajv2020({ allErrors: true }).compile(
      JSON.parse(readFileSync(join(ROOT, 'schema/catalogue.schema.json'), 'utf8')),
    );
    expect(validate(catalogue) ? [] : validate.errors).toEqual([]);
  });

  it("has unique ids, each row in a declared section and every section with rows (the extensions' too)", () => {
    const ids = rows.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const sections = catalogue.sections.map((s) => s.id);
    expect(sections.filter((id, i) => sections.indexOf(id) !== i)).toEqual([]);
    expect(rows.filter((r) => !sections.includes(r.section)).map((r) => r.id)).toEqual([]);
    expect(sections.filter((id) => !rows.some((r) => r.section === id))).toEqual([]);
    expect(sections).toEqual(expect.arrayContaining(['apps', 'tasks-ext']));
  });

  it('covers every black-box requirement by a check, case or property, or excludes it with a reason', async () => {
    const { checks, frameRules } = await loadSuite();
    const covered = new Set(
      [...checks, ...frameRules, ...CLIENT_CHECKS, ...CLIENT_AUTH_CHECKS, ...AUTHZ_CHECKS].flatMap((c) => [
        c.requirement.id,
        ...(c.covers ?? []),
      ]),
    );
    const required = rows.filter(testable).map((r) => r.id);
    const excluded = new Map(exclusions.map((e) => [e.id, e.reason]));
    expect(required.filter((id) => !covered.has(id) && !excluded.has(id))).toEqual([]);
    // An exclusion of a requirement that is covered (or not in the catalogue) is stale.
    expect(exclusions.filter((e) => covered.has(e.id) || !rows.some((r) => r.id === e.id)).map((e) => e.id)).toEqual(
      [],
    );
    expect(exclusions.filter((e) => typeof e.reason !== 'string' || e.reason.length < 10).map((e) => e.id)).toEqual([]);
    console.log(
      `${checks.length + frameRules.length} checks (${checks.filter((c) => c.source).length} YAML cases) cover ${required.filter((id) => covered.has(id)).length} of ${required.length} black-box requirements; ${exclusions.length} excluded with a reason`,
    );
  });

  it('names only catalogue requirements', async () => {
    const { checks, frameRules } = await loadSuite();
    const known = new Set(rows.map((r) => r.id));
    const unknown = [...checks, ...frameRules, ...CLIENT_CHECKS, ...CLIENT_AUTH_CHECKS, ...AUTHZ_CHECKS]
      .flatMap((c) => [c.requirement.id, ...(c.covers ?? [])].map((id) => `${c.id} → ${id}`))
      .filter((pair) => !known.has(pair.split(' → ')[1]));
    expect(unknown).toEqual([]);
  });
});
