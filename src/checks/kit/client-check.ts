// The model of a client-side check: it reads what one scenario recorded (every frame, every HTTP exchange, the
// requests the test server sent and their answers, the process's exit) and concludes; the run combines scenarios.
import type { OAuthRig } from '../../auth/oauth-rig.js';
import type { AuthScenario } from '../../auth/scenarios.js';
import type { Requirement } from '../../schema/generated/report.js';
import type { ClientExit } from '../../transport/client-process.js';
import type { Conversation, Frame } from '../../transport/test-server/conversation.js';
import type { HttpState } from '../../transport/test-server/endpoint.js';
import type { HttpExchange } from '../../transport/test-server/http.js';
import type { StdioState } from '../../transport/test-server/stdio.js';
import type { Scenario } from '../../transport/test-server/scenario.js';
import type { Outcome } from './check.js';

/** What one scenario left for the checks. */
export interface ScenarioRecord {
  scenario: Scenario;
  revision: string;
  transport: 'http' | 'stdio';
  conv: Conversation;
  http?: { exchanges: readonly HttpExchange[]; state: HttpState };
  /** Over stdio: one start of the server (a client may start it several times; each is its own record). */
  stdio?: StdioState;
  exit: ClientExit;
  /** An authorization scenario: the rig the MCP endpoint was mounted behind, and what it saw. */
  auth?: AuthRun;
}

/** What the authorization checks read: the scenario, and the rig's record of every exchange. */
export interface AuthRun {
  scenario: AuthScenario;
  rig: OAuthRig;
  /** The scenario was named: a draft or extension failure counts as one (else it is reported as a warning). */
  counted?: boolean;
}

export interface ClientCheckDef {
  /** `client-side/<area>/<behaviour>`. */
  id: string;
  title: string;
  requirement: Requirement;
  covers?: string[];
  /** The scenarios it judges (default: every one). */
  scenarios?: readonly string[];
  /** The one transport it applies to. */
  transport?: 'http' | 'stdio';
  /** The revisions it applies to (default: every one). */
  revisions?: readonly string[];
  /** It judges HTTP exchanges (the authorization checks), so it has something to judge where no MCP frame came. */
  readsExchanges?: boolean;
  /** The verdict on one scenario; a skip says why it did not apply there. */
  judge(record: ScenarioRecord): Outcome;
}

/** Whether a check judges a scenario at all (its scenarios, revisions and transport). */
export const appliesTo = (def: ClientCheckDef, r: ScenarioRecord): boolean =>
  (!def.scenarios || def.scenarios.includes(r.scenario.name)) &&
  (!def.revisions || def.revisions.includes(r.revision)) &&
  (!def.transport || def.transport === r.transport);

/** The client's messages of a scenario (parsed frames only), in order. */
export const fromClient = (r: ScenarioRecord): Record<string, unknown>[] =>
  r.conv.frames.flatMap((f: Frame) =>
    f.dir !== 'in' || f.message === undefined ? [] : Array.isArray(f.message) ? f.message : [f.message],
  ) as Record<string, unknown>[];

/** The client's requests of a scenario. */
export const requestsOf = (r: ScenarioRecord) => fromClient(r).filter((m) => typeof m.method === 'string' && 'id' in m);

/** The transcript excerpt around frames `seqs` (the whole scenario's when none). */
export function excerpt(r: ScenarioRecord, seqs: number[] = []) {
  const entries = r.conv.transcript.entries;
  if (seqs.length === 0) return entries.slice(0, 60);
  const lo = Math.min(...seqs) - 3;
  const hi = Math.max(...seqs) + 3;
  return entries.filter((e) => e.seq >= lo && e.seq <= hi);
}

/** The name of the scenario, with its revision, for messages. */
export const where = (r: ScenarioRecord) =>
  `${r.scenario.name} @ ${r.revision}${r.stdio && r.stdio.spawn > 1 ? ` (server start ${r.stdio.spawn})` : ''}`;
