#!/usr/bin/env node
// The BROWSER an authorization scenario's client run sets: opens an authorization URL as a browser would, without a person. It fetches the
// URL and follows each redirect (the suite's authorization server consents at once and redirects to the client's
// loopback callback), on loopback only, so a client that "opens a browser" gets its code.
import { isLocal } from '../transport/http-client.js';

const MAX_REDIRECTS = 10;

async function open(start: string): Promise<number> {
  let url = new URL(start);
  for (let i = 0; i <= MAX_REDIRECTS; i++) {
    if (!isLocal(url)) {
      process.stderr.write(`mcp-conformance-browser: not a loopback URL, not opened: ${url.origin}\n`);
      return 2;
    }
    const r = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    await r.body?.cancel();
    const next = r.headers.get('location');
    if (r.status < 300 || r.status >= 400 || !next) return r.ok ? 0 : 1;
    url = new URL(next, url);
  }
  process.stderr.write('mcp-conformance-browser: too many redirects\n');
  return 1;
}

const target = process.argv[2];
if (!target) {
  process.stderr.write('Usage: mcp-conformance-browser <url>\n');
  process.exit(2);
}
open(target).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`mcp-conformance-browser: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
