import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type _Ajv2020 from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { precompiledModule } from '../schema/precompiled.js';
import type { Config } from '../schema/generated/config.js';
import { readYamlFile, schemaProblem } from './yaml-file.js';

/** The file a run picks up from the working directory when no --config is given. */
export const CONFIG_FILE = 'mcp-conformance.config.yaml';

let validator: ValidateFunction<Config> | undefined;
/**
 * Validates a config file's content, and the programmatic API's options (they have the same shape): precompiled at
 * build time when it can be, else compiled by Ajv (loaded only then). Made on first use, so --help does not pay.
 */
export function configValidator(): ValidateFunction<Config> {
  if (!validator) {
    const schemaText = readFileSync(new URL('../../schema/config.schema.json', import.meta.url), 'utf8');
    validator =
      (precompiledModule('config', [schemaText])?.d_root as ValidateFunction<Config> | undefined) ??
      compileConfigSchema(schemaText);
  }
  return validator;
}

/** The config schema compiled at run time (no build output): Ajv, CommonJS with `exports.default`, is loaded only then. */
function compileConfigSchema(text: string): ValidateFunction<Config> {
  const { default: Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof _Ajv2020;
  return new Ajv2020({ allErrors: true, allowUnionTypes: true }).compile<Config>(JSON.parse(text) as object);
}

/** `dir/mcp-conformance.config.yaml` when it exists. */
export function findConfig(dir: string): string | undefined {
  const file = join(dir, CONFIG_FILE);
  return existsSync(file) ? file : undefined;
}

/** A URL target is not a path, so it is not made absolute. */
const isUrl = (s: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(s);

/**
 * Reads and validates a config file. Its relative paths (target, cwd, out, expectedFailures, cases) are made absolute
 * against the file's folder, so the file means the same from wherever the run starts. An empty file is an empty config.
 */
export async function loadConfig(file: string): Promise<Config> {
  const yaml = await readYamlFile(file);
  const value = yaml.value ?? {};
  const validateConfig = configValidator();
  if (!validateConfig(value)) {
    const { path, message } = schemaProblem(validateConfig.errors ?? []);
    throw yaml.error(path, message);
  }
  if (value.target !== undefined && value.command !== undefined)
    throw yaml.error(['command'], 'give either target or command, not both');
  const here = (p: string) => resolve(dirname(file), p);
  return {
    ...value,
    ...(value.target !== undefined && !isUrl(value.target) && { target: here(value.target) }),
    ...(value.cwd !== undefined && { cwd: here(value.cwd) }),
    ...(value.out !== undefined && { out: here(value.out) }),
    ...(value.expectedFailures !== undefined && { expectedFailures: here(value.expectedFailures) }),
    ...(value.cases !== undefined && { cases: value.cases.map(here) }),
  };
}
