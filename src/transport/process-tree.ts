import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

/** Process supervision helpers: find a process's descendants and kill them all. */

interface ProcInfo {
  ppid: number;
  state: string;
  /** CPU time spent, its own and its waited-for children's, in clock ticks. */
  ticks: number;
}

/** Linux reports CPU times in USER_HZ ticks, 100 a second on every architecture it runs on. */
const TICK_MS = 10;

/**
 * Room for a /proc/<pid>/stat line (a few hundred bytes), reused: readFileSync sees size 0 on /proc and allocates
 * 64 KiB per file, and a scan reads one file per process on the machine.
 */
const statBuffer = Buffer.alloc(4096);

/** Reads /proc/<pid>/stat; undefined when the process is gone or /proc is unavailable. */
function readStat(pid: number): ProcInfo | undefined {
  let text: string;
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/stat`, 'r');
    text = statBuffer.toString('latin1', 0, readSync(fd, statBuffer, 0, statBuffer.length, 0));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  // "pid (comm) state ppid …" — comm may itself contain spaces and parentheses.
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = text.slice(close + 2).split(' ');
  const ppid = Number(fields[1]);
  if (!Number.isInteger(ppid)) return undefined;
  // utime, stime, cutime, cstime: fields 14–17 of the line, 11–14 after "state".
  const ticks = [11, 12, 13, 14].reduce((n, i) => n + (Number(fields[i]) || 0), 0);
  return { state: fields[0] ?? '?', ppid, ticks };
}

/**
 * CPU milliseconds a process and its descendants have spent (Linux); undefined elsewhere. A start measured so does not
 * depend on how loaded the machine was, as its wall time does.
 */
export function cpuMs(pid: number): number | undefined {
  return treeReader(pid)()?.cpuMs;
}

/**
 * Reads, again and again, what a process tree is doing (Linux; undefined elsewhere, or once it is gone): its CPU
 * milliseconds, and whether every process of it sleeps (waits for input, neither runs nor waits for the CPU). The tree
 * is looked up on the first read and every fifth after, each process's own stat on every read.
 */
export function treeReader(pid: number): () => { cpuMs: number; sleeping: boolean } | undefined {
  if (process.platform !== 'linux') return () => undefined;
  let tree: number[] = [];
  let reads = 0;
  return () => {
    if (reads++ % 5 === 0) tree = descendants(pid);
    const own = readStat(pid);
    if (!own) return undefined;
    const infos = [own, ...tree.map(readStat).filter((info) => info !== undefined)];
    return {
      cpuMs: infos.reduce((n, info) => n + info.ticks, 0) * TICK_MS,
      sleeping: infos.every((info) => info.state === 'S'),
    };
  };
}

/** pid → ppid for every process on the system. */
function processTable(): Map<number, number> {
  const table = new Map<number, number>();
  if (process.platform === 'linux') {
    let names: string[] | undefined;
    try {
      names = readdirSync('/proc');
    } catch {
      names = undefined;
    }
    if (names) {
      for (const name of names) {
        if (!/^\d+$/.test(name)) continue;
        const pid = Number(name);
        const info = readStat(pid);
        if (info) table.set(pid, info.ppid);
      }
      return table;
    }
  }
  if (process.platform === 'win32') return table;
  try {
    const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    for (const line of out.split('\n')) {
      const m = /^\s*(\d+)\s+(\d+)\s*$/.exec(line);
      if (m) table.set(Number(m[1]), Number(m[2]));
    }
  } catch {
    // No ps: only the process group kill remains.
  }
  return table;
}

/**
 * Every live descendant of `pid` (children, grandchildren, …), found through parent links.
 * Call it while `pid` is still alive: once a parent dies its children are reparented and
 * can no longer be found this way. Processes that called setsid are still found.
 */
export function descendants(pid: number): number[] {
  const table = processTable();
  const children = new Map<number, number[]>();
  for (const [child, parent] of table) {
    if (child === parent) continue;
    let list = children.get(parent);
    if (!list) children.set(parent, (list = []));
    list.push(child);
  }
  const found: number[] = [];
  const seen = new Set<number>([pid]);
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const child of children.get(current) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Sends a signal, ignoring "no such process" (and "not permitted", which means it is not ours to kill). */
function signalQuietly(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal);
  } catch {
    // ESRCH: already gone. EPERM: pid reused by someone else's process.
  }
}

/**
 * Kills `pid`'s process group (the server is spawned as a group leader) and every pid in
 * `pids` (descendants collected earlier with {@link descendants}), with SIGKILL by default.
 */
export function killTree(pid: number, pids: readonly number[], signal: NodeJS.Signals = 'SIGKILL'): void {
  if (process.platform !== 'win32') signalQuietly(-pid, signal);
  signalQuietly(pid, signal);
  for (const p of pids) {
    if (p > 1 && p !== process.pid) signalQuietly(p, signal);
  }
}

/** Whether `pid` is a running process. Zombies (dead, not yet reaped) count as dead. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform === 'linux') {
    const info = readStat(pid);
    if (info && (info.state === 'Z' || info.state === 'X')) return false;
  }
  return true;
}

/**
 * Settles once `atLeastMs` have passed and the process tree of `pid` has then been found asleep (waiting for input)
 * twice in a row, polled every 100 ms; or once it is gone; or after `atMostMs` whatever it does. A wait for what a
 * process might still send that a loaded machine does not cut short: a process that waits for the CPU is not asleep.
 * Off Linux (where nothing says whether a process sleeps), after `atLeastMs`.
 */
export function untilAsleep(pid: number, atLeastMs: number, atMostMs: number): Promise<void> {
  const read = treeReader(pid);
  const from = performance.now();
  return new Promise((resolve) => {
    let asleep = 0;
    const poll = setInterval(() => {
      const now = read();
      asleep = now?.sleeping ? asleep + 1 : 0;
      const waited = performance.now() - from;
      if (now === undefined ? waited >= atLeastMs : (waited >= atLeastMs && asleep >= 2) || waited >= atMostMs) {
        clearInterval(poll);
        resolve();
      }
    }, 100);
    poll.unref();
  });
}
