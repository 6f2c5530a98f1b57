import { readdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { ConfigError, display, parseYamlText, schemaProblem, type YamlPath } from '../../config/yaml-file.js';
import type { Case } from '../../schema/generated/case.js';
import { exportName, precompiledModule, sha256 } from '../../schema/precompiled.js';
import { matcherProblems } from './matchers.js';

/** A case and the file it came from. */
export type LoadedCase = Case & { file: string };

/** The built-in suite. */
export const BUILTIN_CASES = fileURLToPath(new URL('../../../cases', import.meta.url));

/** A suite's list of catalogue requirements it deliberately leaves uncovered, with reasons: not a case. */
export const EXCLUSIONS = 'excluded.yaml';

const caseText = await readFile(new URL('../../../schema/case.schema.json', import.meta.url), 'utf8');
const caseSchema = JSON.parse(caseText) as { $id: string };
let precompiled: Record<string, ValidateFunction | undefined> | undefined | null = null;
let ajv: Ajv2020 | undefined;
/** A definition's validator: generated at build time when it can be (src/schema/precompiled.ts), else compiled on first use. */
function caseValidator(definition?: string): ValidateFunction {
  if (precompiled === null) precompiled = precompiledModule('case', [caseText]);
  const ready = precompiled?.[definition ? exportName(definition) : 'd_root'];
  if (ready) return ready;
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true });
    ajv.addKeyword('tsType'); // a hint for the type generator, not a constraint
    ajv.addSchema(caseSchema);
  }
  return ajv.getSchema(definition ? `${caseSchema.$id}#/$defs/${definition}` : caseSchema.$id)!;
}
const STEP_KINDS = ['request', 'notify', 'raw', 'noResponse', 'alive'] as const;
const STEP_DEF: Record<(typeof STEP_KINDS)[number], string> = {
  request: 'RequestStep',
  notify: 'NotifyStep',
  raw: 'RawStep',
  noResponse: 'NoResponseStep',
  alive: 'AliveStep',
};

/** Every `*.yaml` case under the given folders (sorted, so runs are reproducible). Throws ConfigError on the first bad file. */
export async function loadCases(dirs: string[]): Promise<LoadedCase[]> {
  const cases: LoadedCase[] = [];
  const seen = new Map<string, string>();
  for (const dir of dirs) {
    const files = await yamlFiles(resolve(dir));
    const texts = await Promise.all(files.map((file) => readFile(file, 'utf8')));
    const parsed = (resolve(dir) === BUILTIN_CASES && parsedAtBuild(files, texts)) || undefined;
    for (const [i, file] of files.entries()) {
      const loaded = parsed?.[i] ?? parseOnce(file, texts[i]);
      const other = seen.get(loaded.id);
      if (other) throw new ConfigError(`${display(file)}:1:1: id ${loaded.id} is already used by ${display(other)}`);
      seen.set(loaded.id, file);
      cases.push(loaded);
    }
  }
  return cases;
}

/**
 * Each file's case as last parsed, while its text is the same: a process that loads the suite again (the MCP server's
 * runs, a matrix, the tests, which run from src/ without the build's parsed cases) parses each YAML file once.
 */
const lastParsed = new Map<string, { text: string; loaded: LoadedCase }>();
function parseOnce(file: string, text: string): LoadedCase {
  const last = lastParsed.get(file);
  if (last?.text === text) return { ...last.loaded };
  const loaded = parseCase(file, text);
  lastParsed.set(file, { text, loaded });
  return { ...loaded };
}

/** The built-in cases as parsed at build time (scripts/precompile-validators.mjs): each file's path, SHA-256 and case. */
export const PARSED_BUILTIN_CASES = 'builtin-cases.json';
type ParsedCases = { name: string; sha256: string; case: Case }[];

/**
 * The built-in cases parsed at build time, while the files are exactly the ones they were parsed from (parsing the
 * YAML is most of loading them); undefined otherwise (not built, run from src/, or a case edited since the build).
 */
function parsedAtBuild(files: string[], texts: string[]): LoadedCase[] | undefined {
  let parsed: ParsedCases;
  try {
    parsed = createRequire(import.meta.url)(`./${PARSED_BUILTIN_CASES}`) as ParsedCases;
  } catch {
    return undefined;
  }
  const same =
    parsed.length === files.length &&
    parsed.every((p, i) => p.name === relative(BUILTIN_CASES, files[i]) && p.sha256 === sha256(texts[i]));
  return same ? parsed.map((p, i) => ({ ...p.case, file: files[i] })) : undefined;
}

async function yamlFiles(dir: string): Promise<string[]> {
  let info;
  try {
    info = await stat(dir);
  } catch {
    throw new ConfigError(`${dir}: case folder not found`);
  }
  if (!info.isDirectory()) throw new ConfigError(`${dir}: not a folder`);
  const out: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true, recursive: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    // Symlinked folders are not followed: a case folder holds only what is in it.
    if (entry.isFile() && /\.ya?ml$/.test(entry.name) && entry.name !== EXCLUSIONS)
      out.push(join(entry.parentPath, entry.name));
  }
  return out.sort();
}

/** Parses and validates one case file; every problem names file:line:column and the field. */
export function parseCase(file: string, text: string): LoadedCase {
  const yaml = parseYamlText(file, text);
  const value = yaml.value;
  const validateCase = caseValidator() as ValidateFunction<Case>;
  if (!validateCase(value)) {
    const e = mostSpecific(value, validateCase.errors ?? []);
    throw yaml.error(e.path, e.message, e.atKey);
  }
  const c = value as Case;
  c.steps.forEach((step, i) => {
    const kind = STEP_KINDS.find((k) => k in step)!;
    if ((kind === 'notify' || kind === 'raw' || kind === 'noResponse') && (c.session ?? 'shared') === 'shared') {
      throw yaml.error(
        ['steps', i, kind],
        'needs session fresh or uninitialized (the shared session only takes requests)',
        true,
      );
    }
    for (const key of ['expect', 'outcomes'] as const) {
      if (!(key in step)) continue;
      const problem = matcherProblems((step as unknown as Record<string, unknown>)[key])[0];
      if (problem) throw yaml.error(['steps', i, key, ...problem.path], problem.message);
    }
    ((step as { outcomes?: { match?: unknown; silence?: true }[] }).outcomes ?? []).forEach((o, j) => {
      if ('match' in o === 'silence' in o)
        throw yaml.error(['steps', i, 'outcomes', j], 'needs exactly one of match, silence');
    });
  });
  return { ...c, file };
}

/** Ajv reports every branch of the step union; re-validate a step as the kind its key says, for one precise error. */
function mostSpecific(value: unknown, errors: ErrorObject[]): { path: YamlPath; message: string; atKey?: boolean } {
  const stepError = errors.find((e) => /^\/steps\/\d+$/.test(e.instancePath) && e.keyword === 'oneOf');
  if (!stepError) return schemaProblem(errors);
  const index = Number(stepError.instancePath.split('/')[2]);
  const step = (value as { steps: unknown[] }).steps[index];
  const kind = STEP_KINDS.find((k) => typeof step === 'object' && step !== null && k in step);
  if (!kind) return { path: ['steps', index], message: `a step needs one of: ${STEP_KINDS.join(', ')}` };
  const v = caseValidator(STEP_DEF[kind]);
  v(step);
  const inner = schemaProblem(v.errors ?? []);
  return { ...inner, path: ['steps', index, ...inner.path] };
}
