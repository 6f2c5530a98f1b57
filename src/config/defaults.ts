/**
 * Defaults of the options that have one (--help shows them too). `runs`, the values each property generates: the
 * default suite stays well under 3 s on the reference server. This module imports nothing, so any layer may read it.
 */
export const DEFAULTS = {
  timeout: 10,
  budget: 300,
  out: 'reports',
  strict: false,
  revision: 'auto',
  runs: 100,
  toolCalls: 'safe',
} as const;
