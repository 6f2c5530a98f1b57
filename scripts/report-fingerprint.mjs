#!/usr/bin/env node
// A report.json as what must stay the same from one build to the next: each check's id, status, level and message,
// in report order, with run times, durations and run ids left out. `node scripts/report-fingerprint.mjs report.json`
// prints it; the golden-report test compares it with a recorded one.
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * What differs between two runs of the same server: times ("12.3 ms"), a late answer's id and wait, counts of
 * frames or server→client requests that depend on how concurrent checks interleave, and of progress cut off by a timeout.
 */
const VARYING = [
  [/^\d+ frame\(s\) inspected/g, '<n> frame(s) inspected'],
  [/^\d+ ([a-z]+(?:\/[A-Za-z]+)*) request\(s\)/g, '<n> $1 request(s)'],
  [/\b\d+ declined, \d+ accepted\b/g, '<n> declined, <n> accepted'],
  [/\b\d+(?:\.\d+)? ?ms\b/g, '<ms>'],
  // The port a served server listens on, as the origin checks name it.
  [/\b(127\.0\.0\.1|localhost|evil\.example):\d+\b/g, '$1:<port>'],
  [/\(id [^)]*\) answered after \d+(?:\.\d+)? s/g, '(id <id>) answered after <s>'],
  // How many progress notifications came before --timeout gave up on a call.
  [/^\d+ (progress notification\(s\) for .*unanswered within --timeout)/gs, '<n> $1'],
];
/**
 * Checks whose message tells what timing showed (whether a quick call looked slow enough to cancel, on a loaded
 * machine): their status is compared, their message is not.
 */
const TIMED = /^(?:\d{4}-\d\d-\d\d\/)?cancellation\/request\/no-response$/;
/**
 * A passive rule with several findings quotes the first frame that broke it: which one came first depends on how
 * concurrent checks interleaved (and so does how many frames the run brought). Their count is compared, not the one
 * quoted.
 */
const FIRST_OF_MANY = /^[\s\S]*\((and \d+ more finding\(s\)) in \d+ frame\(s\)\)$/;
/** Parts of a message whose order is the order in which concurrent work ended (discovery walks its lists at once). */
const UNORDERED = /^(?:[a-z]+\/)+list: /;

function normalise(message) {
  const parts = message.split('; ');
  const text = parts.length > 1 && parts.every((p) => UNORDERED.test(p)) ? parts.sort().join('; ') : message;
  return VARYING.reduce((m, [re, by]) => m.replace(re, by), text);
}

/** The report's checks, normalised: the same server and seed give the same fingerprint, from any checkout (`root`). */
export function fingerprint(report, root = ROOT) {
  return {
    seed: report.seed,
    ...(report.interrupted && { interrupted: true }),
    summary: report.summary,
    checks: report.checks.map((c) => {
      if (FIRST_OF_MANY.test(c.message))
        return {
          id: c.id,
          status: c.status,
          level: c.level,
          message: c.message.replace(FIRST_OF_MANY, '<one finding> ($1 in <n> frame(s))'),
        };
      return {
        id: c.id,
        status: c.status,
        level: c.level,
        message: TIMED.test(c.id) ? '<timing>' : normalise(c.message).replaceAll(root, '<root>/'),
        expected: c.expected,
        actual: c.actual,
      };
    }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(fingerprint(JSON.parse(readFileSync(process.argv[2], 'utf8'))), null, 1)}\n`);
}
