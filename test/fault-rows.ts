// The fault tables of test/fixtures/servers/faults.yaml, typed (faults.schema.json is what they are checked against).
import * as tables from './fixtures/servers/faults.mjs';

/** How the reference server under a row starts: its wire, and the capabilities it drops. */
export interface ServerStart {
  revision?: '2026-07-28' | 'all';
  disable?: string[];
}
export interface StdioRow {
  fault: string;
  /** Null: proven elsewhere (its why says where). */
  check: string | null;
  expect: 'fail' | 'warn' | null;
  why: string;
  /** process: a fault about the process itself, proven by `npm run test:e2e`; else in the test's own process. */
  tier?: 'in-process' | 'process';
  revision?: string;
  server?: ServerStart;
  with?: string[];
  /** The run reports this one finding: the checks of `with` pass or skip. */
  alone?: true;
  timeoutMs?: number;
}
/** A row proven by a fault run: its check and verdict are named. */
export type TrippingRow = StdioRow & { check: string; expect: 'fail' | 'warn' };
export interface HttpRow {
  fault: string;
  check: string;
  expect: 'fail' | 'warn';
  why: string;
  /** The other `check: status` the same fault breaks. */
  also?: string[];
  /** process: served by a process of its own (`npm run test:e2e`); else in the test's worker. */
  tier?: 'in-worker' | 'process';
}
export interface AuthRow extends HttpRow {
  revision?: string;
  authServer?: boolean;
}

export const FAULT_ROWS = tables.FAULT_ROWS as StdioRow[];
export const HTTP_FAULT_ROWS = tables.HTTP_FAULT_ROWS as HttpRow[];
export const STATELESS_HTTP_FAULT_ROWS = tables.STATELESS_HTTP_FAULT_ROWS as HttpRow[];
export const AUTH_FAULT_ROWS = tables.AUTH_FAULT_ROWS as AuthRow[];
export const { KNOWN_FAULTS, KNOWN_HTTP_FAULTS, FAULTS_FILE, serverEnv } = tables;
export const DISABLED = tables.DISABLED as { server: ServerStart };
export const NO_TASKS = tables.NO_TASKS as { server: ServerStart };
export const STATELESS = tables.STATELESS as { revision: string; server: ServerStart };

/** The rows a fault run proves, of one tier. */
export const trippingRows = (tier: 'in-process' | 'process'): TrippingRow[] =>
  FAULT_ROWS.filter((row): row is TrippingRow => row.check !== null && (row.tier ?? 'in-process') === tier);
