// What a check needs of the server (a case's `requires:`, a code check's `requires`), and why a server falls short.
import type { Requires } from '../../schema/generated/case.js';
import { lookup } from './interpolate.js';
import { undeclaredCapability } from '../../skip-reason.js';

/**
 * Why the server does not offer what `requires` asks for, as the skip reason; undefined when it does. `view` is the
 * profile as cases see it (see profileView): capabilities by dotted path, lists and their named subsets.
 */
export function unmetRequirement(requires: Requires | undefined, view: Record<string, unknown>): string | undefined {
  const caps = view.capabilities as Record<string, unknown>;
  for (const cap of requires?.capabilities ?? []) {
    const v = lookup(caps, cap);
    if (v === undefined || v === false) return undeclaredCapability(cap);
  }
  for (const cap of requires?.missingCapabilities ?? []) {
    if (lookup(caps, cap) !== undefined) return `the server declares the ${cap} capability`;
  }
  for (const fact of requires?.profile ?? []) {
    const v = lookup(view, fact);
    if (v === undefined || (Array.isArray(v) && v.length === 0)) return `the server has no ${fact}`;
  }
  return undefined;
}
