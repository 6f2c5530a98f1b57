/* Generated from schema/ by `npm run generate`. Do not edit. */

export type Step = RequestStep | NotifyStep | RawStep | NoResponseStep | AliveStep;
/**
 * A matcher: a JSON value matched as a subset, with $-operators ($anyOf, $regex, $type, $absent, $valid, $not, $exact, $items, $count). See the README.
 */
export type Matcher = unknown;
export type Status = 'pass' | 'warn' | 'fail';

/**
 * A YAML scenario case: cases/<area>/<behaviour>.yaml. See the README section 'Writing cases'.
 */
export interface Case {
  /**
   * Stable id: area/feature/behaviour, kebab-case
   */
  id: string;
  title: string;
  requirement: Requirement;
  /**
   * Further catalogue requirement ids this case also exercises
   */
  covers?: string[];
  /**
   * Revisions the case applies to, or all (default: the initialize wire's, 2025-03-26 to 2025-11-25: a case runs on the stateless 2026-07-28 wire only when it names it); under any other revision it is skipped
   */
  revisions?:
    | [
        '2025-03-26' | '2025-06-18' | '2025-11-25' | '2026-07-28',
        ...('2025-03-26' | '2025-06-18' | '2025-11-25' | '2026-07-28')[]
      ]
    | 'all';
  requires?: Requires;
  /**
   * shared: the run's initialized session (requests only); fresh: an initialized session of the case's own (on the stateless wire, which has no handshake, ready as it is); over stdio, fresh cases take turns on scratch sessions, and one that does not pass there runs again on a new server, whose verdict stands; uninitialized: a new process before initialize
   */
  session?: 'shared' | 'fresh' | 'uninitialized';
  forEach?: ForEach;
  /**
   * @minItems 1
   */
  steps: [Step, ...Step[]];
}
export interface Requirement {
  /**
   * Catalogue id, e.g. prompts.get.unknown
   */
  id: string;
  level: 'MUST' | 'SHOULD' | 'MAY';
  /**
   * Specification URL with anchor
   */
  spec: string;
  /**
   * One-line paraphrase in our own words
   */
  text: string;
}
export interface Requires {
  /**
   * Server capabilities that must be declared (dotted paths such as resources.subscribe must be true)
   */
  capabilities?: string[];
  /**
   * Server capabilities that must NOT be declared
   */
  missingCapabilities?: string[];
  /**
   * Profile facts that must be non-empty, e.g. tools.readOnly, resources, prompts.withRequiredArguments
   */
  profile?: string[];
}
export interface ForEach {
  /**
   * A profile list, e.g. resources, prompts.withArguments, lists
   */
  in: string;
  as: string;
  max?: number;
}
export interface RequestStep {
  /**
   * Method to call
   */
  request: string;
  /**
   * Request params; strings may contain {{ profile.paths }}
   */
  params?: unknown;
  /**
   * Request id to use instead of the session's own
   */
  id?: string | number;
  timeoutMs?: number;
  /**
   * Matcher the response must satisfy to pass
   */
  expect?: unknown;
  /**
   * Checked in order after expect; the first that applies decides
   */
  outcomes?: Outcome[];
  /**
   * Verdict when nothing matched (default: fail for MUST, warn otherwise)
   */
  otherwise?: 'pass' | 'warn' | 'fail';
}
/**
 * Either match (a matcher over the response) or silence: true (no response came)
 */
export interface Outcome {
  match?: Matcher;
  /**
   * Applies when no response came
   */
  silence?: true;
  status: Status;
  /**
   * Said in the result message when this outcome applies
   */
  note?: string;
}
export interface NotifyStep {
  /**
   * Notification method to send
   */
  notify: string;
  params?: unknown;
}
export interface RawStep {
  /**
   * A line sent exactly as written (plus a newline): malformed input
   */
  raw: string;
  /**
   * The id (or ids, for a batch) the line carries, so each answer can be matched
   */
  id?: (string | number) | [string | number, ...(string | number)[]];
  /**
   * A matcher: a JSON value matched as a subset, with $-operators ($anyOf, $regex, $type, $absent, $valid, $not, $exact, $items, $count). See the README.
   */
  expect?: unknown;
  /**
   * Checked in order after expect; the first that applies decides
   */
  outcomes?: Outcome[];
  /**
   * Verdict when nothing matched (default: fail for MUST, warn otherwise)
   */
  otherwise?: 'pass' | 'warn' | 'fail';
}
export interface NoResponseStep {
  /**
   * No response may arrive for anything sent since the previous step, within ms
   */
  noResponse: {
    ms: number;
  };
}
export interface AliveStep {
  /**
   * The server still answers ping
   */
  alive: true;
}
