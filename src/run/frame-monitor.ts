import type { CheckResult, TranscriptEntry } from '../schema/generated/report.js';
import type { InboundEvent, Session } from '../session/session.js';
import type { TransportKind } from '../transport/transport.js';
import { worstOf, wrongTransport } from '../checks/kit/check.js';
import { citing } from '../checks/kit/requirement.js';
import type { Finding, FrameContext, FrameRule } from '../checks/kit/frame-rule.js';
import { bounded } from '../json.js';
import { checkResult } from './result.js';

/** Findings kept per rule; the rest are only counted, so a flood cannot grow memory. */
const KEEP = 20;

interface Tally {
  inspected: number;
  findings: (Finding & { entry: TranscriptEntry })[];
  dropped: number;
}

/** Applies every frame rule to every frame of every session of the run, and turns the tallies into results. */
export class FrameMonitor {
  readonly context: FrameContext = {};
  private readonly tallies = new Map<string, Tally>();
  private readonly started = performance.now();

  constructor(private readonly rules: FrameRule[]) {
    for (const r of rules) this.tallies.set(r.id, { inspected: 0, findings: [], dropped: 0 });
  }

  /** From now on; `earlier` is what the session received before (the auto probe's frames, in a session handed over). */
  watch(session: Session, earlier: readonly InboundEvent[] = []): void {
    for (const e of earlier) this.inspect(e);
    session.onInbound((e) => this.inspect(e));
  }

  private inspect(e: InboundEvent): void {
    // An answer to a malformed line sent on purpose is the sending check's to judge: judged here too, one fault would
    // count twice (an echoed id `{}` would also break schema/errors, an echoed null answer no request).
    if (e.probe !== undefined) return;
    for (const rule of this.rules) {
      const found = rule.inspect(e, this.context);
      if (found === undefined) continue;
      const tally = this.tallies.get(rule.id)!;
      tally.inspected++;
      for (const f of found) {
        // Kept to the end of the run: the evidence, not the frame's multi-megabyte payloads.
        if (tally.findings.length < KEEP)
          tally.findings.push({ ...f, expected: bounded(f.expected), actual: bounded(f.actual), entry: e.line.entry });
        else tally.dropped++;
      }
    }
  }

  /**
   * One result per rule; `transport` is the run's, which rules made for another skip. A rule that judged frames of
   * `revision` (the run's) cites that revision's page.
   */
  results(transport: TransportKind, revision?: string): CheckResult[] {
    const durationMs = Math.round(performance.now() - this.started);
    return this.rules.map((listed) => {
      const tally = this.tallies.get(listed.id)!;
      const rule =
        revision && tally.inspected > 0 ? { ...listed, requirement: citing(listed.requirement, revision) } : listed;
      const elsewhere = wrongTransport(rule.transport, transport);
      if (elsewhere) return checkResult(rule, { status: 'skip', message: elsewhere }, durationMs);
      if (tally.inspected === 0)
        return checkResult(rule, { status: 'skip', message: `no ${rule.looksAt} was seen during the run` }, durationMs);
      const worst = worstOf(tally.findings, (f) => f.severity);
      if (!worst)
        return checkResult(rule, { status: 'pass', message: `${tally.inspected} frame(s) inspected` }, durationMs);
      const count = tally.findings.length + tally.dropped;
      const others = count > 1 ? ` (and ${count - 1} more finding(s) in ${tally.inspected} frame(s))` : '';
      const entries = tally.findings.map((f) => f.entry).filter((entry, i, all) => all.indexOf(entry) === i);
      return checkResult(
        rule,
        { status: worst.severity, message: worst.message + others, expected: worst.expected, actual: worst.actual },
        durationMs,
        entries,
      );
    });
  }
}
