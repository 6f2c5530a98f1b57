// The protocol revisions the project knows, apart from their validators: the modules that start a run need the names
// long before anything is validated, and loading Ajv for them would hold up the server's start.

/** Revisions of the initialize wire (a stateful session), newest first. */
export const REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
/** The revision of the stateless wire: no initialize, `server/discover`, protocol fields in every request's `_meta`. */
export const STATELESS_REVISION = '2026-07-28';
/** Every revision the project has a schema for, newest first. */
export const SCHEMA_REVISIONS = [STATELESS_REVISION, ...REVISIONS] as const;
export type Revision = (typeof SCHEMA_REVISIONS)[number];

export const isRevision = (value: string): value is Revision => (SCHEMA_REVISIONS as readonly string[]).includes(value);

/** Every published protocol version, oldest first (and 2024-10-07, a pre-release SDKs still list). */
export const KNOWN_VERSIONS = ['2024-10-07', '2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
