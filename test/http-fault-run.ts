// One run of the suite against the faulty HTTP app, served in the test's worker: the HTTP fault rows' runs
// (test/http-faults.test.ts, test/stateless-http-faults.test.ts).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ConformanceOptions, runConformance } from '../src/index.js';
import type { Report } from '../src/schema/generated/report.js';
import { STATELESS_REVISION } from '../src/schema/validators.js';
import { createFaultyHttpApp } from './fixtures/servers/faulty-http-server.mjs';

/** Every check that neither passed nor was skipped, as `id: status`. */
export const notPassing = (r: Report) =>
  r.checks
    .filter((c) => c.status !== 'pass' && c.status !== 'skip')
    .map((c) => `${c.id}: ${c.status}`)
    .sort();

type FaultyApp = Awaited<ReturnType<typeof createFaultyHttpApp>> & { http: Server };

/**
 * Runs the suite in `revision` against the faulty app with `fault` on (none: the reference server's behaviour), served
 * here until the run ends; `change` alters the app first, `only` narrows the run, `runs` sizes the generated checks.
 */
export async function run(
  fault: string | undefined,
  revision: string,
  change?: (app: FaultyApp) => void,
  only?: string[],
  runs = 10,
): Promise<Report> {
  // createHttpServer adds `http` after building the app object, which the type inferred from JavaScript does not see.
  const app = (await createFaultyHttpApp(fault ? [fault] : [], {
    revision: revision === STATELESS_REVISION ? revision : undefined,
  })) as FaultyApp;
  change?.(app);
  await new Promise<void>((resolve) => app.http.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = app.http.address() as AddressInfo;
    return await runConformance({
      target: `http://127.0.0.1:${port}/mcp`,
      revision: revision as ConformanceOptions['revision'],
      seed: 7,
      runs,
      only,
    });
  } finally {
    app.http.closeAllConnections();
    await new Promise((resolve) => app.http.close(resolve));
  }
}
