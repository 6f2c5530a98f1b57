import type { LaunchPlan } from '../target/launch-plan.js';

/**
 * Request headers the user gave (--header), --env entries with secret-looking names, and the environment variables
 * the user named secret (--secret) are secrets: every report, console line and launch error shows their values as ***.
 */
export const REDACTED = '***';

/** Shorter strings are not scrubbed from server output: "1" or "on" would mangle every report. */
const MIN_SECRET = 4;

/** Environment variable names that say their value is a credential (GITHUB_TOKEN, API_KEY, DB_PASSWORD, AUTH …). */
const SECRET_NAME = /TOKEN|KEY|SECRET|PASS(WORD|WD)?|AUTH|CREDENTIAL|PRIVATE|COOKIE/i;

/**
 * The strings to hide: each header value, and the credential after its scheme ("Bearer abc123" → "abc123" too),
 * the value of each environment entry whose name looks secret, and the value of each named secret (from the
 * plan's environment, else the inherited one, which the server gets too).
 */
export function secretsOf({
  headers = {},
  env,
  secretNames = [],
}: Pick<LaunchPlan, 'headers' | 'env' | 'secretNames'>): string[] {
  const fromEnv = Object.entries(env).flatMap(([name, v]) => (SECRET_NAME.test(name) ? [v] : []));
  const named = secretNames.flatMap((name) => env[name] ?? process.env[name] ?? []);
  const secrets = [...Object.values(headers).flatMap((v) => [v, v.replace(/^\S+\s+/, '')]), ...fromEnv, ...named];
  return [...new Set(secrets.map((s) => s.trim()).filter((s) => s.length >= MIN_SECRET))].sort(
    (a, b) => b.length - a.length,
  );
}

/** A deep copy of `value` in which every secret, wherever a server echoed it, reads ***. */
export function redact<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const scrub = (v: unknown): unknown => {
    if (typeof v === 'string') return secrets.reduce((s, secret) => s.replaceAll(secret, REDACTED), v);
    if (Array.isArray(v)) return v.map(scrub);
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrub(x)]));
    return v;
  };
  return scrub(value) as T;
}

/** `Name: ***, Other: ***`, for the transcript. */
export function describeHeaders(headers: Readonly<Record<string, string>>): string {
  return Object.keys(headers)
    .map((name) => `${name}: ${REDACTED}`)
    .join(', ');
}

/** The URL with any password in it replaced. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password) return url;
    u.password = REDACTED;
    return u.toString();
  } catch {
    return url;
  }
}
