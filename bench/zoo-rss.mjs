// Preloaded into the CLI by bench/zoo.mjs (`node --import`): writes the tool's own peak RSS (not its children's) on exit.
import { writeFileSync } from 'node:fs';

process.on('exit', () =>
  writeFileSync(/** @type {string} */ (process.env.ZOO_RSS_FILE), String(process.resourceUsage().maxRSS)),
);
