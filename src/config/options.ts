import { parseShard, type Shard } from '../suite/shard.js';
import type { Config } from '../schema/generated/config.js';
import type { LocalIssuer } from '../auth/issuer.js';
import type { Serve } from '../transport/in-process.js';
import { configValidator, loadConfig } from './config.js';
import { DEFAULTS } from './defaults.js';
import { ConfigError, fieldName, schemaProblem } from './yaml-file.js';

/**
 * What a run takes, from the command line or the programmatic API: the config file's keys (timeouts in seconds),
 * plus a target that may be a command, a config file to start from, and a shard.
 */
export type ConformanceOptions = Omit<Config, '$schema' | 'target' | 'command'> & {
  /** The server: a file, a project folder (its package.json bin or main) or a URL; or a command with its arguments. */
  target?: string | string[];
  /** A config file; the other options override its values (env key by key). */
  config?: string;
  /** `"i/n"`: run only shard i of n of the active checks; frame rules judge the shard's own traffic. */
  shard?: string;
  /**
   * A server of the caller's process instead of a target: called once for every fresh session the run needs, with the
   * two streams a stdio server has (it reads newline-delimited JSON-RPC from `input` and writes to `output`).
   */
  serve?: Serve;
};

/** Options merged, defaulted and checked, once, by resolveOptions: what everything after it reads. */
export interface ResolvedOptions {
  target?: string;
  serve?: Serve;
  command?: string[];
  cwd?: string;
  env: Record<string, string>;
  headers: Record<string, string>;
  /** Environment variables whose values are redacted: the config file's and the command line's together. */
  secrets: string[];
  httpUrl?: string;
  port?: number | 'auto';
  transport?: Config['transport'];
  timeoutMs: number;
  budgetMs: number;
  strict: boolean;
  /** Where reports go; none given: the programmatic API writes none, the command line its default folder. */
  out?: string;
  expectedFailures?: string;
  shard?: Shard;
  cases: string[];
  only?: string[];
  skip?: string[];
  /** A run whose every check is skipped may pass. */
  allowEmpty: boolean;
  /** One revision, or `auto` or `all`, which stand for several runs (see conformEach). */
  revision: string;
  /** None given: each run draws a random one, which its report records. */
  seed?: number;
  runs: number;
  /** Server processes that may be starting at once; none given: what the machine runs well (see StartGate). */
  maxStarts?: number;
  toolCalls: NonNullable<Config['toolCalls']>;
  allowTools: string[];
  /** The environment variable holding the bearer token. */
  tokenEnv?: string;
  authServer: boolean;
  authServerPort?: number;
  /** The --auth-server once it listens (set by the run, not by options). */
  issuer?: LocalIssuer;
}

const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * Checks the options against the config schema, lays them over the config file (when given) and applies the defaults:
 * the one place they are applied, for the command line and the programmatic API alike. `nameOf` names an option in
 * errors as its giver knows it (the command line: by its flag).
 */
export async function resolveOptions(
  options: ConformanceOptions,
  nameOf = (key: string) => `option ${key}`,
): Promise<ResolvedOptions> {
  const { target, config, shard: shardText, serve, ...rest } = options;
  const given: Config = {
    ...defined(rest),
    ...(Array.isArray(target) ? { command: target as Config['command'] } : target !== undefined && { target }),
  };
  const validateConfig = configValidator();
  if (!validateConfig(given)) {
    const { path, message } = schemaProblem(validateConfig.errors ?? []);
    const [key, ...rest] = fieldName(path).split(/(?=[.[])/);
    throw new ConfigError(`${nameOf(key!)}${rest.join('')}: ${message}`);
  }
  const shard = shardText === undefined ? undefined : parseShard(shardText);
  if (shardText !== undefined && !shard)
    throw new ConfigError(`${nameOf('shard')}: must be i/n with 1 ≤ i ≤ n, not ${JSON.stringify(shardText)}`);

  const file = config === undefined ? {} : await loadConfig(config);
  // A target given here replaces the file's target or command, whichever it had.
  const { target: fileTarget, command: fileCommand, ...fileRest } = file;
  const server =
    given.target !== undefined || given.command !== undefined ? {} : { target: fileTarget, command: fileCommand };
  const merged: Config = {
    ...fileRest,
    ...server,
    ...given,
    env: { ...file.env, ...given.env },
    headers: { ...file.headers, ...given.headers },
  };
  return {
    // A server in this process replaces the file's target (a config file may be the command line's too), not a given one.
    ...(serve !== undefined
      ? { serve, target: given.target, command: given.command }
      : { target: merged.target, command: merged.command }),
    cwd: merged.cwd,
    env: Object.fromEntries(Object.entries(merged.env ?? {}).map(([k, v]) => [k, String(v)])),
    headers: merged.headers ?? {},
    // Given ones add to the file's: a flag must never show what the file hides.
    secrets: [...new Set([...(file.secrets ?? []), ...(given.secrets ?? [])])],
    httpUrl: merged.httpUrl,
    port: merged.port,
    transport: merged.transport,
    timeoutMs: Math.round((merged.timeout ?? DEFAULTS.timeout) * 1000),
    budgetMs: Math.round((merged.budget ?? DEFAULTS.budget) * 1000),
    strict: merged.strict ?? DEFAULTS.strict,
    out: merged.out,
    expectedFailures: merged.expectedFailures,
    shard,
    cases: merged.cases ?? [],
    only: merged.only,
    skip: merged.skip,
    allowEmpty: merged.allowEmpty ?? false,
    revision: merged.revision ?? DEFAULTS.revision,
    seed: merged.seed,
    runs: merged.runs ?? DEFAULTS.runs,
    maxStarts: merged.maxStarts,
    toolCalls: merged.toolCalls ?? DEFAULTS.toolCalls,
    allowTools: merged.allowTools ?? [],
    tokenEnv: merged.tokenEnv,
    authServer: merged.authServer ?? false,
    authServerPort: merged.authServerPort,
  };
}
