// The MCP Apps extension's own JSON Schema, as published in @modelcontextprotocol/ext-apps: the shapes of a tool's
// and a UI resource's `_meta.ui` come from it, never from a copy here.
import { createRequire } from 'node:module';
import _Ajv2020 from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { type ValidationResult, formatErrors } from './validators.js';

const Ajv2020 = _Ajv2020.default;
const requireHere = createRequire(import.meta.url);

/** The `$defs` of the package's schema that the Apps checks use. */
export type AppsDefinition = 'McpUiToolMeta' | 'McpUiResourceMeta';

/** The MIME type of an MCP App's HTML (RESOURCE_MIME_TYPE in the package). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

let compiled: Map<AppsDefinition, ValidateFunction> | undefined;

function validatorOf(definition: AppsDefinition): ValidateFunction {
  if (!compiled) {
    const doc = requireHere('@modelcontextprotocol/ext-apps/schema.json') as {
      $id: string;
      $defs: Record<string, unknown>;
    };
    // Each definition repeats the root's `$schema`, which Ajv allows on a root only: each is compiled as one.
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    compiled = new Map(
      (['McpUiToolMeta', 'McpUiResourceMeta'] as const).map((d) => [d, ajv.compile(doc.$defs[d] as object)]),
    );
  }
  return compiled.get(definition)!;
}

/** Validates a value against one definition of the published MCP Apps schema. */
export function validateApps(definition: AppsDefinition, value: unknown): ValidationResult {
  const fn = validatorOf(definition);
  return fn(value) ? { ok: true } : { ok: false, errors: formatErrors(fn.errors) };
}
