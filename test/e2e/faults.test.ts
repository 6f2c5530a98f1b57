import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import { FRAME_RULES } from '../../src/checks/frame-rules.js';
import { runConformance } from '../../src/run/run.js';
import type { Report } from '../../src/schema/generated/report.js';
import { resolveTarget } from '../../src/target/resolve.js';
import { FAULTY, REFERENCE } from '../helpers.js';

/** Each fault of the faulty fixture, and the check (with its verdict) it must trip. */
const FAULTS: [fault: string, check: string, status: 'fail' | 'warn', options?: { timeoutMs?: number }][] = [
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
  ['echo-version', 'lifecycle/version/unsupported', 'fail'],
  ['version-error', 'lifecycle/version/unsupported', 'warn'],
  ['old-counteroffer', 'lifecycle/version/latest', 'warn'],
  ['bad-init-result', 'lifecycle/initialize/result', 'fail'],
  ['wrong-version-answer', 'lifecycle/version/echo', 'fail'],
  ['ping-error', 'ping/respond', 'fail'],
  ['slow-ping', 'ping/respond', 'fail', { timeoutMs: 1000 }],
  ['method-not-found-code', 'base/method-not-found', 'fail'],
  ['crash-on-malformed', 'base/robustness/malformed-json', 'fail'],
  ['crash-on-invalid-request', 'base/robustness/invalid-request', 'fail'],
  ['silent-invalid-request', 'base/robustness/invalid-request', 'warn'],
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
  ['exit-early', 'lifecycle/shutdown/stdin-close', 'fail'],
];

async function run(env: Record<string, string>, timeoutMs = 5000): Promise<Report> {
  const plan = await resolveTarget({ target: FAULTY, env });
  return runConformance({ plan, timeoutMs, budgetMs: 60_000, strict: false });
}

describe('every check passes on the reference server', () => {
  it('has no failure, warning or skip', async () => {
    const report = await runConformance({ plan: await resolveTarget({ target: REFERENCE }), timeoutMs: 5000, budgetMs: 60_000, strict: false });
    const notPassing = report.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.status} ${c.message}`);
    expect(notPassing).toEqual([]);
    expect(report.checks.map((c) => c.id).sort()).toEqual([...CHECKS, ...FRAME_RULES].map((c) => c.id).sort());
  });
});

describe.concurrent('each fault trips the check that targets it', () => {
  it('covers every check with at least one fault', () => {
    const covered = new Set(FAULTS.map((f) => f[1]));
    expect([...CHECKS, ...FRAME_RULES].map((c) => c.id).filter((id) => !covered.has(id))).toEqual([]);
  });
  for (const [fault, check, status, options] of FAULTS) {
    it(`${fault} → ${check} ${status}`, async () => {
      const report = await run({ MCP_FAULTS: fault }, options?.timeoutMs);
      const result = report.checks.find((c) => c.id === check);
      expect(result?.status, result?.message).toBe(status);
    });
  }
});
