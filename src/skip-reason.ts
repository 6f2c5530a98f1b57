/**
 * The skip reasons that say a check does not apply to this server at all, written and read in one place: the checks
 * skip with them, the console groups the areas they empty by them (see renderConsole).
 */

/** Why a check does not apply: a capability the server does not declare, another transport, another revision. */
export type Inapplicable = 'no capability' | 'other transport' | 'other revision';

/** A check made for a capability (`tools`, `resources.subscribe`) the server does not declare. */
export const undeclaredCapability = (capability: string): string =>
  `the server does not declare the ${capability} capability`;

/** A check of an extension the server does not declare in its capabilities. */
export const undeclaredExtension = (extension: string): string =>
  `the server does not declare ${extension} in its capabilities (extensions)`;

/** A check made for the `needs` transport, on a run over `actual`. */
export const otherTransport = (needs: string, actual: string): string =>
  `applies to the ${needs} transport only; this run uses ${actual}`;

/** A client check made for the `judges` transport, on a client run that spoke `actual` only. */
export const clientOverOtherTransport = (actual: string, judges: string): string =>
  `the client ran over ${actual}; this check judges ${judges}`;

/** The authorization checks on stdio (BASE › Authorization): their own wording of another transport. */
export const CREDENTIALS_FROM_ENVIRONMENT = 'stdio servers take credentials from the environment';

/** A check made for `revisions`, on a run of `revision`. */
export const otherRevision = (revisions: readonly string[], revision: string): string =>
  `applies to ${revisions.join(', ')}; this run tests ${revision}`;

const READ: [RegExp, Inapplicable][] = [
  [/^the server does not declare (?:the \S+ capability|\S+ in its capabilities \(extensions\))$/, 'no capability'],
  [/^applies to the .+ transport only; this run uses .+$/, 'other transport'],
  [/^the client ran over \S+; this check judges .+$/, 'other transport'],
  [new RegExp(`^${CREDENTIALS_FROM_ENVIRONMENT}$`), 'other transport'],
  [/^applies to [^;]+; this run tests \S+$/, 'other revision'],
];

/** Which of the reasons above a skip message gives; undefined for any other (nothing seen to judge, a policy, …). */
export function inapplicable(message: string): Inapplicable | undefined {
  return READ.find(([re]) => re.test(message))?.[1];
}
