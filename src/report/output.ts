import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { backoff } from '../backoff.js';

/** A path the run is to write cannot be written: the user's to fix, reported in one line. */
export class OutputError extends Error {}

/** Errors a moment later may not repeat (a busy file, too many open files); anything else will. */
const TRANSIENT = new Set(['EAGAIN', 'EBUSY', 'EINTR', 'EMFILE', 'ENFILE']);
const RETRIES = 4;
const FIRST_BACKOFF_MS = 25;
/** The fourth retry's pause. */
const MAX_WRITE_BACKOFF_MS = 200;
/** How long a run waits for another run's lock on the same folder before it takes it as left behind. */
const LOCK_WAIT_MS = 10_000;
const LOCK_FILE = '.mcp-conformance.lock';
const MAX_BACKOFF_MS = 100;
/** Well above what LOCK_WAIT_MS takes at MAX_BACKOFF_MS a try. */
const LOCK_ATTEMPTS = 300;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The system's reason without the path Node appends: `ENOENT: no such file or directory`. */
function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ? e.message.replace(/, \w+ '.*'$/s, '') : String(e.message ?? err);
}

/** Runs `op`, again after a growing pause while it fails transiently; at most RETRIES more times. */
async function withRetries<T>(op: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (err) {
      if (attempt >= RETRIES || !TRANSIENT.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
      await sleep(backoff(attempt, FIRST_BACKOFF_MS, MAX_WRITE_BACKOFF_MS));
    }
  }
}

/**
 * Creates `dir` and its missing parents one level at a time. Node's `mkdir(…, {recursive: true})` loops forever
 * where a parent exists but refuses children with ENOENT (under /proc), so the walk here is bounded by the depth.
 */
export async function ensureDir(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    const found = await stat(at).catch((err: NodeJS.ErrnoException) =>
      err.code === 'ENOENT' ? undefined : Promise.reject(err),
    );
    if (found && !found.isDirectory())
      throw Object.assign(new Error(`ENOTDIR: ${at} is not a folder`), { code: 'ENOTDIR' });
    if (found || dirname(at) === at) break;
    missing.unshift(at);
  }
  for (const at of missing) {
    await withRetries(() => mkdir(at)).catch((err: NodeJS.ErrnoException) =>
      err.code === 'EEXIST' ? undefined : Promise.reject(err),
    );
  }
}

/**
 * Before any server starts: the folder `dir` (named by `what`, e.g. `--out reports`) is created and a probe file can be
 * written in it and removed. Throws an OutputError naming the folder and the system's reason.
 */
export async function checkFolder(dir: string, what: string): Promise<void> {
  try {
    await ensureDir(dir);
    const probe = join(dir, `.mcp-conformance-probe-${process.pid}-${randomUUID()}`);
    await writeFile(probe, '');
    await unlink(probe);
  } catch (err) {
    throw new OutputError(`${what}: cannot write reports into this folder (${reason(err)})`);
  }
}

/** Before any server starts: the file `file` (named by `what`) can be appended to. */
export async function checkAppendable(file: string, what: string): Promise<void> {
  try {
    await (await open(file, 'a')).close();
  } catch (err) {
    throw new OutputError(`${what}: cannot append to this file (${reason(err)})`);
  }
}

/**
 * Holds `outDir`'s lock while `work` runs, so that two runs writing the same folder replace its files set by set. A
 * lock whose run has exited, or that is held longer than LOCK_WAIT_MS, was left behind and is taken over.
 */
async function withFolderLock<T>(outDir: string, work: () => Promise<T>): Promise<T> {
  const lock = join(outDir, LOCK_FILE);
  const deadline = performance.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // Runs that keep taking over each other's lock: give up rather than loop.
      if (attempt >= LOCK_ATTEMPTS)
        throw Object.assign(new Error(`EBUSY: ${LOCK_FILE} stays taken`), { code: 'EBUSY' });
      const holder = Number(await readFile(lock, 'utf8').catch(() => ''));
      if (performance.now() > deadline || (holder > 0 && !alive(holder))) await rm(lock, { force: true });
      else await sleep(backoff(attempt, FIRST_BACKOFF_MS, MAX_BACKOFF_MS));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Writes the files (name → text) into `outDir` so that a reader sees, file by file, either the previous complete
 * file or the new one: each is written in full to a temporary file in the same folder first, and all are then
 * renamed into place under the folder's lock. Returns their paths, in the order given.
 */
export async function writeFileSet(outDir: string, files: Record<string, string>): Promise<Record<string, string>> {
  try {
    await ensureDir(outDir);
  } catch (err) {
    throw new OutputError(`${outDir}: cannot write reports into this folder (${reason(err)})`);
  }
  const staged = Object.entries(files).map(([name, text]) => ({
    name,
    text,
    path: join(outDir, name),
    temp: join(outDir, `.${name}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`),
  }));
  try {
    await Promise.all(staged.map(({ temp, text }) => withRetries(() => writeFile(temp, text, 'utf8'))));
    await withFolderLock(outDir, async () => {
      for (const { temp, path } of staged) await withRetries(() => rename(temp, path));
    });
  } catch (err) {
    await Promise.all(staged.map(({ temp }) => rm(temp, { force: true })));
    throw new OutputError(`${outDir}: cannot write reports into this folder (${reason(err)})`);
  }
  return Object.fromEntries(staged.map(({ name, path }) => [name, path]));
}

/** Writes `outDir/name` atomically (see writeFileSet); returns its path. */
export async function writeReportFile(outDir: string, name: string, text: string): Promise<string> {
  return (await writeFileSet(outDir, { [name]: text }))[name]!;
}
