// `mcp-conformance authorization`'s command line: our flags and the official suite's (`--file`, `--scenario`,
// `--spec-version`, `-p/--port`, `-o/--output-dir`, `--verbose`), read into the options of one run. A mistake in either
// is a UsageError that names it.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DEFAULTS } from '../config/defaults.js';
import { isObject } from '../json.js';
import { authzScenarioChecks, OFFICIAL_AUTHZ_SCENARIOS } from '../report/official-authz-scenarios.js';
import type { AuthzRunOptions } from '../run/authz/run.js';
import { KNOWN_VERSIONS, STATELESS_REVISION } from '../schema/revisions.js';
import { parsedOr, secondsOr, UsageError } from './options.js';

/** The official runner's callback port: a pre-registered client's redirect_uri is http://127.0.0.1:3000/callback. */
export const OFFICIAL_PORT = 3000;

export interface AuthorizationLine {
  run: AuthzRunOptions;
  /** The official scenario --scenario named. */
  scenario?: string;
  out: string;
  /** Where the official results layout goes (-o/--output-dir). */
  outputDir?: string;
  expectedFailures?: string;
  verbose: boolean;
}

/** The official settings file (`--file`): these keys, no other. */
interface Settings {
  url?: string;
  scenario?: string;
  clientId?: string;
  clientSecret?: string;
  resource?: string;
  port?: number;
}
const SETTINGS: Record<keyof Settings, 'string' | 'number'> = {
  url: 'string',
  scenario: 'string',
  clientId: 'string',
  clientSecret: 'string',
  resource: 'string',
  port: 'number',
};

/** The line read, or undefined for --help. */
export async function authorizationLine(argv: string[], usage: string): Promise<AuthorizationLine | undefined> {
  const { values } = parsedOr(() => parse(argv), usage);
  if (values.help) return undefined;
  const file = values.file === undefined ? {} : await readSettings(values.file);
  // A flag given overrides the file's value, as the official runner merges them.
  const url = values.url ?? file.url;
  if (!url || !URL.canParse(url))
    throw new UsageError(
      `--url takes the issuer's URL${url ? `, not ${JSON.stringify(url)}` : ' (or --file, a settings file with url)'}\n\n${usage}`,
    );
  const clientId = values['client-id'] ?? file.clientId;
  const resource = values.resource ?? file.resource;
  if (resource !== undefined && (!URL.canParse(resource) || new URL(resource).hash))
    throw new UsageError(
      `--resource takes an absolute URI without a fragment (RFC 8707 §2), not ${JSON.stringify(resource)}`,
    );
  const scenario = values.scenario ?? file.scenario;
  const checks = scenario === undefined ? undefined : authzScenarioChecks(scenario);
  if (scenario !== undefined && !checks)
    throw new UsageError(
      `unknown scenario ${JSON.stringify(scenario)}; the official authorization scenarios: ${Object.keys(OFFICIAL_AUTHZ_SCENARIOS).join(', ')}`,
    );
  // A pre-registered client's redirect_uri is fixed: without --port it is the official default's, never a free port.
  const port =
    values.port !== undefined ? portOf(values.port, '--port') : (file.port ?? (clientId ? OFFICIAL_PORT : 0));
  return {
    run: {
      // An issuer without a path is written without the slash a URL gets (RFC 8414 §2 compares it as a string).
      issuer: new URL(url).pathname === '/' ? url.replace(/\/$/, '') : url,
      clientId,
      clientSecret: values['client-secret'] ?? file.clientSecret,
      resource,
      scope: values.scope,
      redirectPort: port,
      timeoutMs: secondsOr(values.timeout, 'timeout', 10) * 1000,
      browserMs: secondsOr(values['browser-timeout'], 'browser-timeout', 120) * 1000,
      ...(checks && { checks }),
      ...(values['spec-version'] !== undefined && { revision: revisionOf(values['spec-version']) }),
      only: values.only,
      skip: values.skip,
      strict: values.strict,
    },
    ...(scenario !== undefined && { scenario }),
    out: values.out ?? values['output-dir'] ?? DEFAULTS.out,
    ...(values['output-dir'] !== undefined && { outputDir: values['output-dir'] }),
    ...(values['expected-failures'] !== undefined && { expectedFailures: values['expected-failures'] }),
    verbose: values.verbose === true,
  };
}

/** The official settings file, read strictly: JSON, an object of the known keys, each of its type. */
async function readSettings(path: string): Promise<Settings> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`settings file ${path}: ${(err as Error).message}`);
  }
  if (!isObject(value)) throw new UsageError(`settings file ${path}: must be a JSON object`);
  for (const [key, v] of Object.entries(value)) {
    if (!Object.hasOwn(SETTINGS, key))
      throw new UsageError(
        `settings file ${path}: unknown key ${JSON.stringify(key)} (expected ${Object.keys(SETTINGS).join(', ')})`,
      );
    const type = SETTINGS[key as keyof Settings];
    if (typeof v !== type || (type === 'string' && v === ''))
      throw new UsageError(`settings file ${path}: ${key} must be a non-empty ${type}, not ${JSON.stringify(v)}`);
  }
  const settings = value as Settings;
  // As the official runner reads it, the file is a whole configuration on its own: flags only override it.
  if (settings.url === undefined) throw new UsageError(`settings file ${path}: url is required`);
  if (!URL.canParse(settings.url))
    throw new UsageError(`settings file ${path}: url must be a URL, not ${JSON.stringify(settings.url)}`);
  if (settings.port !== undefined) portOf(String(settings.port), `${path}: port`);
  return settings;
}

function portOf(value: string, what: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535)
    throw new UsageError(`${what} takes a port number from 1 to 65535, not ${JSON.stringify(value)}`);
  return n;
}

/** The official `--spec-version`: a dated revision, or `draft` (its alias of the next one: for us 2026-07-28). */
function revisionOf(value: string): string {
  const revision = value === 'draft' ? STATELESS_REVISION : value;
  const dated = KNOWN_VERSIONS.filter((v) => v !== '2024-10-07');
  if (!dated.includes(revision))
    throw new UsageError(`--spec-version takes one of ${dated.join(', ')} or draft, not ${JSON.stringify(value)}`);
  return revision;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: false,
    options: {
      url: { type: 'string' },
      file: { type: 'string' },
      scenario: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      port: { type: 'string', short: 'p' },
      resource: { type: 'string' },
      scope: { type: 'string' },
      'spec-version': { type: 'string' },
      timeout: { type: 'string' },
      'browser-timeout': { type: 'string' },
      only: { type: 'string', multiple: true },
      skip: { type: 'string', multiple: true },
      out: { type: 'string' },
      'output-dir': { type: 'string', short: 'o' },
      'expected-failures': { type: 'string' },
      strict: { type: 'boolean' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
