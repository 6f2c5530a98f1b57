import type { OnProgress, Progress } from '../run/progress.js';
import { STATUSES } from '../report/summary.js';
import { clip, visible } from '../report/text.js';

/** Redraws at most this often; the elapsed time ticks once a second between updates. */
const REDRAW_MS = 100;
const TICK_MS = 1000;
const ERASE_LINE = '\r\x1b[2K';
const UP = '\x1b[1A';

/** Lines drawn in place at the bottom of a terminal, redrawn as they change and erased before the final output. */
export class LiveLines {
  private drawn = 0;
  private lines: string[] = [];
  private last = 0;
  private pending: NodeJS.Timeout | undefined;
  private readonly ticker: NodeJS.Timeout;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private render: () => string[],
  ) {
    this.ticker = setInterval(() => this.draw(), TICK_MS).unref();
  }

  /** Something changed: redraw now, or soon when the last redraw was just now. */
  changed(): void {
    const wait = this.last + REDRAW_MS - performance.now();
    if (wait <= 0) this.draw();
    else this.pending ??= setTimeout(() => this.draw(), wait).unref();
  }

  /** A line printed above the live lines, to stay. */
  print(text: string): void {
    this.erase();
    this.stream.write(text);
    this.draw();
  }

  /** Erase the lines and stop drawing. */
  stop(): void {
    clearInterval(this.ticker);
    clearTimeout(this.pending);
    this.erase();
    this.render = () => [];
  }

  private draw(): void {
    clearTimeout(this.pending);
    this.pending = undefined;
    this.last = performance.now();
    const width = Math.max(20, (this.stream.columns || 80) - 1);
    const lines = this.render().map((line) => clip(visible(line), width));
    if (lines.length === this.drawn && lines.every((line, i) => line === this.lines[i])) return;
    this.erase();
    this.lines = lines;
    if (this.lines.length > 0) this.stream.write(this.lines.join('\n'));
    this.drawn = this.lines.length;
  }

  private erase(): void {
    if (this.drawn === 0) return;
    this.stream.write(ERASE_LINE + (UP + ERASE_LINE).repeat(this.drawn - 1));
    this.drawn = 0;
  }
}

/** `37/128 checks · 2025-11-25 · tools/call/unknown-tool · 4.2 s · 1 failed` */
export function progressText(p: Progress, elapsedMs: number): string {
  return [`${p.done}/${p.total} checks`, p.revision, p.current, elapsed(elapsedMs), `${p.failures} failed`]
    .filter(Boolean)
    .join(' · ');
}

const elapsed = (ms: number) => `${Math.floor(ms / 1000)} s`;

/** `tools  12 checks: 10 pass, 1 fail, 1 skip` (statuses with none left out): an area's line under --verbose. */
export function areaText({ area, statuses }: NonNullable<Progress['areaDone']>, revision?: string): string {
  const counts = STATUSES.map((s) => [s, statuses.filter((x) => x === s).length] as const).filter(([, n]) => n > 0);
  return `${visible(revision ? `${revision}/${area}` : area).padEnd(12)} ${statuses.length} check${statuses.length === 1 ? '' : 's'}: ${counts.map(([s, n]) => `${n} ${s}`).join(', ')}\n`;
}

/** How far a run has come goes where it can be seen, and nowhere else. */
export interface ProgressSink {
  onProgress?: OnProgress;
  /** Before the final report: the live line is erased. */
  stop(): void;
}

/**
 * On a terminal, one live line; in a run the matrix started, messages to it; with --verbose, one line per finished
 * area; otherwise nothing, so that what a run prints into a pipe is its report alone.
 */
export function progressSink(stdout: NodeJS.WriteStream, verbose: boolean): ProgressSink {
  const t0 = performance.now();
  if (stdout.isTTY) {
    let latest: Progress | undefined;
    const live = new LiveLines(stdout, () =>
      latest ? [progressText(latest, performance.now() - t0)] : [`starting · ${elapsed(performance.now() - t0)}`],
    );
    live.changed();
    return {
      onProgress: (p) => {
        latest = p;
        if (verbose && p.areaDone) live.print(areaText(p.areaDone, p.revision));
        else live.changed();
      },
      stop: () => live.stop(),
    };
  }
  if (process.send && process.env.MCP_CONFORMANCE_PROGRESS === 'ipc') {
    const send = process.send.bind(process);
    let sent = 0;
    return {
      onProgress: (p) => {
        if (p.done < p.total && performance.now() - sent < REDRAW_MS * 2) return;
        sent = performance.now();
        const { areaDone: _area, ...progress } = p;
        send({ progress }, undefined, undefined, () => {});
      },
      stop: () => {},
    };
  }
  if (verbose)
    return { onProgress: (p) => p.areaDone && stdout.write(areaText(p.areaDone, p.revision)), stop: () => {} };
  return { stop: () => {} };
}
