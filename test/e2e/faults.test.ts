import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/checks/suite.js';
import { REVISIONS } from '../../src/schema/validators.js';
import { runConformance } from '../../src/run/run.js';
import type { Report } from '../../src/schema/generated/report.js';
import { resolveTarget } from '../../src/target/resolve.js';
import { FAULTY, REFERENCE } from '../helpers.js';

/** Each fault of the faulty fixture, and the check (with its verdict) it must trip. */
const DISABLED = { MCP_DISABLE: 'tools,resources,prompts,completions,logging' };
/** The reference server without the tasks capability (2025-11-25). */
const NO_TASKS = { MCP_DISABLE: 'tasks' };
/** The reference server on the stateless wire only, tested in 2026-07-28. */
const STATELESS = { env: { MCP_REVISION: '2026-07-28' }, revision: '2026-07-28' };
type Options = { timeoutMs?: number; env?: Record<string, string>; revision?: string };
const FAULTS: [fault: string, check: string, status: 'fail' | 'warn', options?: Options][] = [
  ['banner', 'transport/stdio/stdout-only-messages', 'fail'],
  ['pretty-print', 'transport/stdio/stdout-only-messages', 'fail'],
  ['batch-output', 'transport/stdio/no-batch', 'fail'],
  ['no-jsonrpc', 'base/jsonrpc/version', 'fail'],
  ['string-ids', 'base/response/id-echo', 'fail'],
  ['string-ids', 'base/response/id-types', 'fail'],
  ['unsolicited-response', 'base/response/unsolicited', 'fail'],
  ['reply-to-notification', 'base/notification/no-response', 'fail'],
  ['both-result-error', 'base/response/result-xor-error', 'fail'],
  ['result-not-object', 'base/result/object', 'fail'],
  ['string-error-code', 'base/error/shape', 'fail'],
  ['string-error-code', 'schema/errors', 'fail'],
  ['url-elicitation-no-id', 'schema/errors', 'fail'],
  ['notification-with-id', 'base/notification/no-id', 'fail'],
  ['meta-bad-key', 'base/meta/key-format', 'fail'],
  ['log-without-capability', 'capabilities/logging/declared', 'fail'],
  ['bad-log-notification', 'schema/notifications', 'fail'],
  ['bad-server-request', 'schema/server-requests', 'fail'],
  ['null-input-schema', 'schema/results', 'fail'],
  ['null-input-schema', 'tools/input-schema/valid', 'fail'],
  ['string-input-schema', 'tools/input-schema/valid', 'fail'],
  ['unknown-dialect-schema', 'tools/input-schema/valid', 'warn'],
  ['bad-output-schema', 'tools/output-schema/valid', 'fail'],
  ['array-output-schema', 'tools/output-schema/valid', 'fail'],
  ['echo-version', 'lifecycle/version/unsupported', 'fail'],
  ['version-error', 'lifecycle/version/unsupported', 'warn'],
  ['old-counteroffer', 'lifecycle/version/latest', 'warn'],
  ['bad-init-result', 'lifecycle/initialize/result', 'fail'],
  ['wrong-version-answer', 'lifecycle/version/echo', 'fail'],
  ['ping-error', 'ping/respond', 'fail'],
  ['slow-ping', 'ping/respond', 'fail', { timeoutMs: 1000 }],
  // Silence to what needs no slow work fails; a slow tool warns (its late answers: test/e2e/timeouts.test.ts).
  ['silent-unknown-method', 'base/method-not-found', 'fail', { timeoutMs: 1000 }],
  ['slow-tool', 'tools/call/valid-arguments', 'warn', { timeoutMs: 2000 }],
  ['method-not-found-code', 'base/method-not-found', 'fail'],
  ['crash-on-malformed', 'base/robustness/malformed-json', 'fail'],
  ['crash-on-invalid-request', 'base/robustness/invalid-request', 'fail'],
  ['silent-invalid-request', 'base/robustness/invalid-request', 'warn'],
  ['silent-parse-error', 'base/robustness/malformed-json', 'warn'],
  ['bad-tool-name', 'tools/names/format', 'warn'],
  ['long-tool-name', 'tools/names/format', 'warn'],
  ['duplicate-tool-name', 'tools/names/unique', 'warn'],
  ['unknown-tool-iserror', 'tools/call/unknown-tool', 'warn'],
  ['unknown-tool-success', 'tools/call/unknown-tool', 'fail'],
  ['unknown-resource-32603', 'resources/read/unknown-uri', 'warn'],
  ['unknown-resource-empty', 'resources/read/unknown-uri', 'warn'],
  ['unknown-prompt-success', 'prompts/get/unknown-prompt', 'fail'],
  ['ignore-cursor', 'pagination/invalid-cursor', 'warn'],
  ['looping-cursor', 'pagination/walk', 'warn'],
  ['ignore-stdin-close', 'lifecycle/shutdown/stdin-close', 'warn'],
  ['ignore-sigterm', 'lifecycle/shutdown/stdin-close', 'warn'],
  ['exit-early', 'lifecycle/process/alive', 'fail'],
  // YAML cases
  ['serves-undeclared', 'capabilities/undeclared/method-not-found', 'warn', { env: DISABLED }],
  ['invalid-params-32603', 'tools/call/malformed-params', 'warn'],
  ['invalid-params-32603', 'resources/read/malformed-params', 'warn'],
  ['invalid-params-32603', 'completion/complete/missing-argument', 'warn'],
  ['invalid-params-32603', 'logging/set-level/invalid-level', 'warn'],
  ['setlevel-any', 'logging/set-level/invalid-level', 'warn'],
  ['setlevel-partial', 'logging/set-level/each-level', 'fail'],
  ['text-and-blob', 'resources/read/listed', 'fail'],
  ['bad-base64-blob', 'resources/read/listed', 'fail'],
  ['subscribe-error', 'resources/subscribe/listed', 'fail'],
  ['bad-prompt-role', 'prompts/get/listed', 'fail'],
  ['missing-arg-ok', 'prompts/get/missing-argument', 'warn'],
  ['completion-101', 'completion/complete/prompt-argument', 'fail'],
  ['completion-101', 'completion/complete/template-variable', 'fail'],
  ['completion-unknown-ok', 'completion/complete/unknown-ref', 'warn'],
  ['completion-no-context', 'completion/complete/context', 'fail'],
  ['ping-needs-init', 'lifecycle/ping/before-initialize', 'warn'],
  ['null-id-crash', 'base/request/null-id', 'fail'],
  ['batch-crash', 'base/batch/removed', 'fail'],
  ['batch-partial', 'base/batch/receive', 'fail', { revision: '2025-03-26' }],
  ['serves-etc-passwd', 'resources/read/path-traversal', 'fail'],
  // properties
  ['invalid-arguments-32603', 'tools/call/invalid-arguments', 'fail'],
  ['invalid-arguments-32602', 'tools/call/invalid-arguments', 'warn'],
  ['crash-on-non-string', 'tools/call/invalid-arguments', 'fail'],
  ['bad-structured-content', 'tools/call/valid-arguments', 'fail'],
  ['prompt-args-any-type', 'prompts/get/argument-types', 'warn'],
  ['crash-on-malformed', 'base/robustness/malformed-frames', 'fail'],
  ['overlapping-pages', 'pagination/walk', 'warn'],
  // frame rules
  ['long-error-message', 'base/error/message-concise', 'warn'],
  ['duplicate-server-request-id', 'base/request/id', 'fail'],
  ['meta-reserved-prefix', 'base/meta/reserved-prefix', 'warn'],
  ['newer-fields', 'lifecycle/version/respect', 'warn', { revision: '2025-06-18' }],
  ['sends-sampling', 'capabilities/client/undeclared-requests', 'fail'],
  ['log-secret', 'logging/messages/no-secrets', 'warn'],
  ['image-wrong-mime', 'content/media/mime-type', 'warn'],
  ['embedded-no-mime', 'prompts/embedded/mime-type', 'warn'],
  ['embedded-without-resources', 'content/embedded/resources-capability', 'warn'],
  ['bad-last-modified', 'annotations/last-modified/format', 'warn'],
  ['bad-icons', 'icons/usable', 'warn'],
  ['iserror-no-text', 'tools/call/error-content', 'warn'],
  ['no-text-mirror', 'tools/call/structured-text-mirror', 'warn'],
  // tasks (2025-11-25)
  ['task-errors-32603', 'tasks/unknown-id', 'fail'],
  ['task-errors-32603', 'tasks/list/invalid-cursor', 'fail'],
  ['task-starts-completed', 'tasks/create/result', 'fail'],
  ['task-get-no-ttl', 'tasks/get/task', 'fail'],
  ['task-result-no-meta', 'tasks/result/payload', 'fail'],
  ['task-list-empty', 'tasks/list/contains', 'fail'],
  ['task-cancel-finished', 'tasks/cancel/terminal', 'fail'],
  ['task-cancel-ignored', 'tasks/cancel/working', 'fail'],
  ['task-meta-on-get', 'tasks/meta/omit', 'warn'],
  ['task-forbidden-runs', 'tasks/call/forbidden', 'warn'],
  ['task-required-runs', 'tasks/call/required', 'fail'],
  ['task-without-capability', 'tasks/call/no-capability', 'fail', { env: NO_TASKS }],
  // 2026-07-28
  ['stateless-meta-optional', 'stateless/meta/required', 'fail', STATELESS],
  ['stateless-version-no-data', 'stateless/version/unsupported', 'fail', STATELESS],
  ['stateless-no-result-type', 'stateless/result-type', 'fail', STATELESS],
  ['stateless-no-result-type', 'stateless/discover/result', 'fail', STATELESS],
  ['stateless-no-cache', 'stateless/caching', 'fail', STATELESS],
  ['unknown-resource-32002', 'resources/read/unknown-uri', 'fail', STATELESS],
  ['unknown-resource-32002', 'stateless/errors/reserved', 'fail', STATELESS],
  ['unknown-resource-empty', 'resources/read/unknown-uri', 'fail', STATELESS],
  ['stateless-shuffled-tools', 'stateless/tools/order', 'warn', STATELESS],
  ['stateless-server-request', 'stateless/no-server-requests', 'fail', STATELESS],
  ['stateless-log', 'stateless/logging/requested-only', 'fail', STATELESS],
  ['stateless-connection-tools', 'stateless/lists/per-connection', 'fail', STATELESS],
  ['stateless-version-no-data', 'stateless/initialize/modern-only', 'warn', STATELESS],
  ['missing-cap-no-data', 'stateless/capabilities/missing', 'fail', STATELESS],
  ['mrtr-undeclared-input', 'stateless/capabilities/missing', 'fail', STATELESS],
  ['mrtr-undeclared-input', 'stateless/input-required', 'fail', STATELESS],
  ['mrtr-tamper-accepted', 'stateless/mrtr/retry', 'warn', STATELESS],
  ['mrtr-never-completes', 'stateless/mrtr/retry', 'fail', STATELESS],
  ['subscription-ack-no-id', 'stateless/subscriptions/listen', 'fail', STATELESS],
  ['subscription-unrequested', 'stateless/subscriptions/listen', 'fail', STATELESS],
  // Checks of the initialize wire that hold on the stateless one too: their faults trip them there as well.
  ['method-not-found-code', 'base/method-not-found', 'fail', STATELESS],
  ['string-ids', 'base/response/id-types', 'fail', STATELESS],
  ['unknown-tool-success', 'tools/call/unknown-tool', 'fail', STATELESS],
  ['text-and-blob', 'resources/read/listed', 'fail', STATELESS],
  ['batch-crash', 'base/batch/removed', 'fail', STATELESS],
  ['bad-output-schema', 'tools/output-schema/valid', 'fail', STATELESS],
  ['ignore-stdin-close', 'lifecycle/shutdown/stdin-close', 'warn', STATELESS],
  ['reply-to-notification', 'base/notification/no-response-stateless', 'fail', STATELESS],
];

async function run(target: string, { timeoutMs = 5000, env = {}, revision }: Options = {}): Promise<Report> {
  const plan = await resolveTarget({ target, env });
  return runConformance({ plan, timeoutMs, budgetMs: 60_000, strict: false, protocolVersion: revision });
}

describe('every check passes on the reference server', () => {
  it('never fails or warns in any revision or configuration, and each check passes in at least one', async () => {
    const { checks, frameRules } = await loadSuite();
    const reports = await Promise.all([
      ...REVISIONS.map((revision) => run(REFERENCE, { revision })),
      run(FAULTY, STATELESS),
      // The reference server without capabilities: the gating cases need one.
      run(FAULTY, { env: DISABLED }),
      run(FAULTY, { env: NO_TASKS }),
    ]);
    const bad = reports.flatMap((r) => r.checks.filter((c) => !['pass', 'skip'].includes(c.status)).map((c) => `${r.server?.protocolVersion} ${c.id}: ${c.status} ${c.message}`));
    expect(bad).toEqual([]);
    const passed = new Set(reports.flatMap((r) => r.checks.filter((c) => c.status === 'pass').map((c) => c.id)));
    // The Streamable HTTP checks pass over HTTP: test/e2e/http.test.ts (the stateless wire's: http-stateless.test.ts).
    expect([...checks, ...frameRules].filter((c) => c.transport !== 'http').map((c) => c.id).filter((id) => !passed.has(id))).toEqual([]);
  });
});

describe.concurrent('each fault trips the check that targets it', () => {
  it('covers every check with at least one fault', async () => {
    const { checks, frameRules } = await loadSuite();
    const covered = new Set(FAULTS.map((f) => f[1]));
    // The Streamable HTTP checks have their faults in test/e2e/http.test.ts (the stateless wire's: http-stateless.test.ts).
    expect([...checks, ...frameRules].filter((c) => c.transport !== 'http').map((c) => c.id).filter((id) => !covered.has(id))).toEqual([]);
  });
  for (const [fault, check, status, options] of FAULTS) {
    it(`${fault} → ${check} ${status}`, async () => {
      const report = await run(FAULTY, { ...options, env: { ...options?.env, MCP_FAULTS: fault } });
      const result = report.checks.find((c) => c.id === check);
      expect(result?.status, result?.message).toBe(status);
    });
  }
});
