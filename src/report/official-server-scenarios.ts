// The official server scenarios that have checks here judging their rule, each with those check ids, as the "Judged
// here by" column of docs/official-server-scenarios.md names them (a unit test keeps the two in step). Fixture-only
// scenarios (they compare the official everything-server's fixed tools and values) and those not judged yet are absent:
// the official command line leaves them to our areas, as before.
export const OFFICIAL_SERVER_SCENARIOS: Readonly<Record<string, readonly string[]>> = {
  'completion-complete': [
    'completion/complete/prompt-argument',
    'completion/complete/template-variable',
    'completion/complete/context',
  ],
  'tools-list': [
    'schema/results',
    'tools/input-schema/valid',
    'tools/names/format',
    'tools/names/unique',
    'stateless/tools/order',
  ],
  'tools-call-with-progress': ['progress/requests/notifications', 'progress/notifications/known-token'],
  'server-sse-multiple-streams': ['transport/http/concurrent-streams'],
  'resources-list': ['schema/results', 'pagination/walk'],
  'prompts-list': ['schema/results'],
  'dns-rebinding-protection': [
    'transport/http/origin-forbidden',
    'transport/http/dns-rebinding',
    'transport/http/origin-local',
  ],
  'server-initialize': ['lifecycle/initialize/result', 'lifecycle/version/echo', 'lifecycle/version/unsupported'],
  'logging-set-level': [
    'logging/set-level/each-level',
    'logging/set-level/invalid-level',
    'logging/set-level/threshold',
  ],
  ping: ['ping/respond'],
  'resources-subscribe': ['resources/subscribe/listed', 'resources/updated/subscribed'],
  'resources-unsubscribe': ['resources/subscribe/listed'],
  'server-session-lifecycle': [
    'transport/http/session-delete',
    'transport/http/terminated-session',
    'transport/http/unknown-session',
  ],
  'server-stateless': [
    'stateless/meta/required',
    'stateless/http/meta-missing-400',
    'stateless/meta/client-info-optional',
    'stateless/discover/result',
    'stateless/version/unsupported',
    'stateless/http/version-unsupported-400',
    'stateless/http/header-mismatch',
    'stateless/capabilities/missing',
    'stateless/http/missing-cap-400',
    'stateless/removed-methods',
    'stateless/http/unknown-method-404',
    'base/response/id-echo',
    'stateless/no-server-requests',
    'stateless/logging/requested-only',
    'stateless/subscriptions/listen',
    'stateless/meta/protocol-version-required',
    'stateless/version/requested-echo',
  ],
  'sep-2164-resource-not-found': ['resources/read/unknown-uri', 'stateless/resources/not-found-uri'],
  caching: ['stateless/caching'],
  'input-required-result-basic-elicitation': ['stateless/mrtr/retry'],
  'input-required-result-basic-sampling': ['stateless/mrtr/retry'],
  'input-required-result-basic-list-roots': ['stateless/mrtr/retry'],
  'input-required-result-request-state': ['stateless/mrtr/retry', 'stateless/mrtr/retry-prompt'],
  'input-required-result-multiple-input-requests': ['stateless/mrtr/retry'],
  'input-required-result-multi-round': ['stateless/mrtr/retry'],
  'input-required-result-missing-input-response': ['stateless/mrtr/missing-input'],
  'input-required-result-non-tool-request': ['stateless/mrtr/retry-prompt'],
  'input-required-result-result-type': ['stateless/result-type'],
  'input-required-result-unsupported-methods': ['stateless/input-required'],
  'input-required-result-tampered-state': ['stateless/mrtr/tampered-state'],
  'input-required-result-capability-check': ['stateless/input-required', 'stateless/capabilities/missing'],
  'input-required-result-ignore-extra-params': ['stateless/mrtr/extra-input'],
  'input-required-result-validate-input': ['stateless/mrtr/malformed-input'],
  'http-header-validation': ['stateless/http/header-mismatch', 'stateless/http/header-case'],
  'http-custom-header-server-validation': [
    'stateless/http/param-header-mismatch',
    'stateless/http/param-header-decoded',
  ],
  'tasks-lifecycle': [
    'tasks-ext/create/result-type',
    'tasks-ext/create/durable',
    'tasks-ext/get/status',
    'tasks-ext/cancel/ended',
  ],
  'tasks-capability-negotiation': ['tasks-ext/capability/create', 'tasks-ext/capability/methods'],
  'tasks-wire-fields': ['tasks-ext/create/result-type', 'tasks-ext/get/status', 'schema/results'],
  'tasks-mrtr-input': ['tasks-ext/input/keys', 'tasks-ext/update/ack', 'tasks-ext/update/ignore'],
  'tasks-request-headers': ['stateless/http/header-mismatch'],
  'tasks-dispatch-and-envelope': ['tasks-ext/unknown-id', 'tasks-ext/cancel/ack', 'stateless/removed-methods'],
  'tasks-status-notifications': ['tasks-ext/listen/no-progress'],
  'tasks-required-task-error': ['tasks-ext/capability/create'],
};

/** The official scenarios a check of ours judges (several share `schema/results`, for one). */
export function officialScenariosOf(checkId: string): string[] {
  return Object.keys(OFFICIAL_SERVER_SCENARIOS).filter((name) => OFFICIAL_SERVER_SCENARIOS[name].includes(checkId));
}

/** The official scenarios whose rule no check here judges yet, as the doc table's "Not judged yet" rows name them. */
export const NOT_JUDGED_YET: readonly string[] = ['tasks-request-state-removal', 'tasks-mrtr-composition'];

/** Why no check here judges an official scenario: not yet, else it compares the everything-server's fixtures. */
export const unjudgedReason = (name: string) => (NOT_JUDGED_YET.includes(name) ? 'not judged yet' : 'fixture-only');
