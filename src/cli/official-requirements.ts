// The official suite's frozen requirement sets (its requirements/<revision>.yaml): which scenarios conformance to a
// revision requires, named for the subcommand that runs them (`server`, `client`), and those run and reported but never
// scored (extensions, pending, added after the revision shipped). The names are the official ones; `--requirements`
// maps them onto ours (docs/official-command-line.md).

export interface RequirementSet {
  server: readonly string[];
  client: readonly string[];
  notScored: readonly { scenario: string; leg: 'server' | 'client'; reason: string }[];
}

/** The authorization scenarios the official list calls draft: introduced in 2026-07-28, not in `auth` or `core`. */
export const AUTH_DRAFT = [
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
];

/** The other client scenarios introduced in 2026-07-28 (the official draft slot, for us 2026-07-28). */
export const DRAFT_MCP_AFTER_AUTH = [
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
];

export const AUTH_CORE = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
];

export const AUTH_EXTENSION_NAMES = [
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/enterprise-managed-authorization',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/wif-jwt-bearer',
];
const AUTH_EXTENSIONS = AUTH_EXTENSION_NAMES.map((scenario) => ({
  scenario,
  leg: 'client' as const,
  reason: 'extension',
}));

const TOOLS_CALLS = [
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
];

const PROMPTS = [
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
];

export const TASKS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];

export const REQUIREMENT_SETS: Record<string, RequirementSet> = {
  '2025-11-25': {
    server: [
      'server-initialize',
      'logging-set-level',
      'ping',
      'completion-complete',
      ...TOOLS_CALLS,
      'tools-call-with-logging',
      'tools-call-error',
      'tools-call-with-progress',
      'tools-call-sampling',
      'tools-call-elicitation',
      'elicitation-sep1034-defaults',
      'server-sse-multiple-streams',
      'elicitation-sep1330-enums',
      'resources-list',
      'resources-read-text',
      'resources-read-binary',
      'resources-templates-read',
      'resources-subscribe',
      'resources-unsubscribe',
      ...PROMPTS,
      'dns-rebinding-protection',
    ],
    client: ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry', ...AUTH_CORE],
    notScored: [
      ...AUTH_EXTENSIONS,
      { scenario: 'server-session-lifecycle', leg: 'server', reason: 'added-after-release' },
      { scenario: 'json-schema-2020-12-preservation', leg: 'client', reason: 'added-after-release' },
    ],
  },
  '2026-07-28': {
    server: [
      'server-stateless',
      'completion-complete',
      ...TOOLS_CALLS,
      'tools-call-error',
      'tools-call-with-progress',
      'server-sse-multiple-streams',
      'resources-list',
      'resources-read-text',
      'resources-read-binary',
      'resources-templates-read',
      'sep-2164-resource-not-found',
      ...PROMPTS,
      'dns-rebinding-protection',
      'caching',
      ...[
        'basic-elicitation',
        'basic-sampling',
        'basic-list-roots',
        'request-state',
        'multiple-input-requests',
        'multi-round',
        'missing-input-response',
        'non-tool-request',
        'result-type',
        'unsupported-methods',
        'tampered-state',
        'capability-check',
        'ignore-extra-params',
        'validate-input',
      ].map((s) => `input-required-result-${s}`),
    ],
    client: ['tools_call', 'request-metadata', ...AUTH_CORE, ...AUTH_DRAFT, ...DRAFT_MCP_AFTER_AUTH],
    notScored: [
      ...AUTH_EXTENSIONS,
      { scenario: 'json-schema-2020-12-preservation', leg: 'client', reason: 'added-after-release' },
      ...TASKS.map((scenario) => ({ scenario, leg: 'server' as const, reason: 'extension' })),
      { scenario: 'json-schema-2020-12', leg: 'server', reason: 'pending' },
      { scenario: 'http-header-validation', leg: 'server', reason: 'pending' },
      { scenario: 'http-custom-header-server-validation', leg: 'server', reason: 'pending' },
      { scenario: 'sep-2350-server-scope-challenge', leg: 'server', reason: 'added-after-release' },
    ],
  },
};
