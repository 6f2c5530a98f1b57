// Debian's Chromium for the tests that look at a page as a user would (playwright-core drives it).
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
/** Why a browser test skips: only outside CI, where Chromium is installed (.ci/run). */
export const NO_CHROMIUM = `${CHROMIUM} is absent (apt-get install chromium); skipped locally, a failure when CI=true`;
const ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless Chromium; undefined (the tests skip) when it is absent, an error when CI=true. */
export async function launchChromium(): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) {
    if (process.env.CI === 'true')
      throw new Error(`${CHROMIUM} is missing: CI must install Debian's chromium (see .ci/run)`);
    return undefined;
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}
