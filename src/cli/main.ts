#!/usr/bin/env node
import { killAllServers } from '../transport/server-process.js';
import { isSubcommand, runCommandLine } from './command-line.js';

const [first] = process.argv.slice(2);
/** A run, or the matrix's runs, end their checks at the first signal and still write their reports. */
const graceful = !isSubcommand(first) || ['matrix', 'client', 'init'].includes(first);
const interrupt = new AbortController();

// Servers run in their own process group, so a Ctrl-C does not reach them: stop them here. The first Ctrl-C (or
// SIGTERM, as CI runners and `timeout` send) of a run only ends its checks, so the partial reports are still written
// and the run exits 128 + the signal's number; a second signal does not wait.
const stop = (exitCode: number) => () => {
  if (graceful && !interrupt.signal.aborted) return interrupt.abort(exitCode);
  killAllServers();
  process.exit(exitCode);
};
process.on('SIGINT', stop(130));
process.on('SIGTERM', stop(143));

runCommandLine(process.argv.slice(2), interrupt.signal).then((code) => process.exit(code));
