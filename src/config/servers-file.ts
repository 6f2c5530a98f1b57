import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import type _Ajv2020 from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { uniqueSlugs } from '../report/merge.js';
import type { MatrixServer, MatrixServers } from '../schema/generated/matrix-servers.js';
import { readYamlFile, schemaProblem } from './yaml-file.js';

/** A server of the servers file, its relative paths made absolute, with the folder its reports go to. */
export interface PlannedServer extends MatrixServer {
  /** A slug of its name, unique in the file: its folder under the matrix's --out. */
  folder: string;
}

let validator: ValidateFunction<MatrixServers> | undefined;

function serversValidator(): ValidateFunction<MatrixServers> {
  if (!validator) {
    const { default: Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof _Ajv2020;
    const schema = JSON.parse(
      readFileSync(new URL('../../schema/matrix-servers.schema.json', import.meta.url), 'utf8'),
    ) as object;
    validator = new Ajv2020({ allErrors: true, allowUnionTypes: true }).compile<MatrixServers>(schema);
  }
  return validator;
}

const isUrl = (s: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(s);

/** Fields that say how to start or drive a server: a client or authorization entry has none of them. */
const SERVER_ONLY = ['target', 'command', 'cwd', 'env', 'transport', 'url', 'toolCalls', 'allowTools'] as const;
/** The authorization command's options: for an `authorization` entry alone. */
const AUTHORIZATION_ONLY = ['clientId', 'clientSecret', 'resource', 'scope', 'port'] as const;

/** The first field of another side's an entry has, and why it is refused there. */
function misplaced(s: MatrixServer): { field: string; message: string } | undefined {
  const side =
    s.authorization !== undefined ? 'an authorization server' : s.client !== undefined ? 'a client' : 'a server';
  const other = (fields: readonly (keyof MatrixServer)[]) => fields.find((k) => s[k] !== undefined);
  const server = side !== 'a server' && other(SERVER_ONLY);
  if (server) return { field: server, message: `a server field, and this entry is ${side}` };
  const client = side !== 'a client' && other(['client', 'scenarios']);
  if (client) return { field: client, message: `a client field, and this entry is ${side}` };
  const authz = side !== 'an authorization server' && other(AUTHORIZATION_ONLY);
  if (authz) return { field: authz, message: `an authorization server field, and this entry is ${side}` };
  return undefined;
}

/**
 * Reads and validates a servers file: a mistake is a ConfigError naming file, line and field. Relative paths (target,
 * cwd, expectedFailures) are made absolute against the file's folder, so the file means the same from anywhere.
 */
export async function loadServersFile(file: string): Promise<PlannedServer[]> {
  const yaml = await readYamlFile(file);
  const validate = serversValidator();
  if (!validate(yaml.value)) {
    const { path, message, atKey } = schemaProblem(validate.errors ?? []);
    throw yaml.error(path, message, atKey);
  }
  const seen = new Set<string>();
  yaml.value.servers.forEach((s, i) => {
    if (seen.has(s.name))
      throw yaml.error(['servers', i, 'name'], `${JSON.stringify(s.name)} names another server already`);
    seen.add(s.name);
    const wrong = misplaced(s);
    if (wrong) throw yaml.error(['servers', i, wrong.field], wrong.message);
    if (s.authorization !== undefined) {
      if (!/^https?:\/\//i.test(s.authorization) || !URL.canParse(s.authorization))
        throw yaml.error(['servers', i, 'authorization'], "the issuer's URL (http or https), as --url takes it");
      if (s.resource !== undefined && (!URL.canParse(s.resource) || new URL(s.resource).hash))
        throw yaml.error(['servers', i, 'resource'], 'an absolute URI without a fragment (RFC 8707 §2)');
      if (s.revision === 'all')
        throw yaml.error(['servers', i, 'revision'], 'an authorization server is judged at one revision (or auto)');
      return;
    }
    if (s.client !== undefined) return;
    if ((s.target === undefined) === (s.command === undefined))
      throw yaml.error(
        ['servers', i],
        'give either target or command (or client, for a client; authorization, for an authorization server)',
      );
    if (s.url !== undefined && s.command === undefined)
      throw yaml.error(['servers', i, 'url'], 'url needs the command that starts the server');
  });
  const here = (p: string) => resolve(dirname(file), p);
  const folders = uniqueSlugs(yaml.value.servers.map((s) => s.name));
  return yaml.value.servers.map((s, i) => ({
    ...s,
    folder: folders[i],
    ...(s.target !== undefined && !isUrl(s.target) && { target: here(s.target) }),
    ...(s.cwd !== undefined && { cwd: here(s.cwd) }),
    ...(s.expectedFailures !== undefined && { expectedFailures: here(s.expectedFailures) }),
  }));
}
