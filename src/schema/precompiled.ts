// Validators generated at build time by scripts/precompile-validators.mjs (Ajv standalone code) into
// dist/schema/precompiled/<name>.cjs: loading them costs a fraction of compiling the schemas at run time.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';

const requireHere = createRequire(import.meta.url);

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The export of a definition's validator in a generated module (the root schema's is `d_root`). */
export const exportName = (definition: string): string => `d_${definition.replace(/[^A-Za-z0-9_]/g, '_')}`;

/**
 * The generated validators `name`, when they were made from exactly these schema texts (their SHA-256 match);
 * undefined otherwise (not built, run from src/, or a schema edited since the build): the caller compiles then.
 */
export function precompiledModule(
  name: string,
  texts: string[],
): Record<string, ValidateFunction | undefined> | undefined {
  try {
    const mod = requireHere(`./precompiled/${name}.cjs`) as Record<string, unknown>;
    return JSON.stringify(mod.__schemaHashes) === JSON.stringify(texts.map(sha256))
      ? (mod as Record<string, ValidateFunction | undefined>)
      : undefined;
  } catch {
    return undefined;
  }
}
