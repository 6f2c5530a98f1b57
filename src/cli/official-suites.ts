// The official runner's suites by the official scenario names, as its src/index.ts and src/scenarios/index.ts select
// them: what `client --suite NAME` runs (mapped onto our scenarios of the same names) and the server's `pending` list.
// The names are frozen here, as the requirement sets are, so that a suite means what it means there and not what our
// tiers would make of it (docs/official-command-line.md).
import { AUTH_CORE, AUTH_DRAFT, AUTH_EXTENSION_NAMES, DRAFT_MCP_AFTER_AUTH, TASKS } from './official-requirements.js';

/** The official core client scenarios beside the authorization ones (its tier-1 list). */
const CORE_MCP = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];

/** Authorization as 2025-03-26 had it: optional back-compat, in no suite but its own and `all`. */
const BACKCOMPAT = ['auth/2025-03-26-oauth-metadata-backcompat', 'auth/2025-03-26-oauth-endpoint-fallback'];

/** The skills extension's client scenarios (SEP-2640): off the revision timeline, in `all` alone. */
const SKILLS_CLIENT = [
  'sep-2640-client-no-prefetch',
  'sep-2640-client-verify-digest',
  'sep-2640-client-verify-size',
  'sep-2640-client-verify-frontmatter',
];

/** Each official client suite, in the official order. */
export const OFFICIAL_CLIENT_SUITES: Readonly<Record<string, readonly string[]>> = {
  all: [
    ...CORE_MCP,
    'request-metadata',
    ...AUTH_CORE,
    ...BACKCOMPAT,
    ...AUTH_DRAFT,
    ...AUTH_EXTENSION_NAMES,
    ...DRAFT_MCP_AFTER_AUTH,
    'json-schema-2020-12-preservation',
    ...SKILLS_CLIENT,
  ],
  core: [...CORE_MCP, ...AUTH_CORE],
  extensions: AUTH_EXTENSION_NAMES,
  backcompat: BACKCOMPAT,
  auth: AUTH_CORE,
  metadata: AUTH_CORE.filter((n) => n.startsWith('auth/metadata-')),
  draft: ['request-metadata', ...AUTH_DRAFT, ...DRAFT_MCP_AFTER_AUTH],
  'sep-835': AUTH_CORE.filter((n) => n.startsWith('auth/scope-')),
};

/** The official server suite `pending`: scenarios its everything-server does not pass yet, out of `active`. */
export const OFFICIAL_PENDING_SERVER: readonly string[] = [
  'json-schema-2020-12',
  'server-sse-polling',
  'http-header-validation',
  'http-custom-header-server-validation',
  ...TASKS,
  'sep-2640-skills-directory',
  'sep-2640-skills-enumeration',
  'sep-2640-skills-manifest',
];
