/** One server-sent event, read by the WHATWG event-stream rules. */
export interface SseEvent {
  /** The `event` field; 'message' when there is none. */
  type: string;
  /** The `data` lines joined with \n ('' for an event without any, or with an empty one). */
  data: string;
  /** The event had at least one `data` line (a priming event has one, empty). */
  hasData: boolean;
  /** The event's own `id` field, when it had one. */
  id?: string;
  /** The `retry` field, when it was a valid number of milliseconds. */
  retry?: number;
}

/**
 * Incremental `text/event-stream` parser: any chunking, CRLF / LF / CR line ends, a leading BOM, comments,
 * multi-line data. Unlike a browser EventSource it also reports events without data (an `id` or `retry`
 * alone), since a conformance check wants to see every event id the server sends.
 */
export class SseParser {
  private readonly decoder = new TextDecoder('utf-8'); // drops one leading BOM, as the standard asks
  private buffer = '';
  private type = '';
  private data: string[] = [];
  private dataChars = 0;
  private id: string | undefined;
  private retry: number | undefined;
  private fields = 0;

  constructor(
    private readonly onEvent: (event: SseEvent) => void,
    /** Longest line or event accepted; beyond it push() throws a RangeError. */
    private readonly maxChars = 64 * 1024 * 1024,
  ) {}

  push(chunk: Uint8Array): void {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    this.drain(false);
  }

  /** End of stream: an event not yet ended by a blank line is dropped, as the standard says. */
  end(): void {
    this.buffer += this.decoder.decode();
    this.drain(true);
  }

  private drain(final: boolean): void {
    const eol = /[\r\n]/g;
    let start = 0;
    for (let m = eol.exec(this.buffer); m; m = eol.exec(this.buffer)) {
      const i = m.index;
      // A CR at the end of what arrived may be the first half of a CRLF.
      if (this.buffer[i] === '\r' && i === this.buffer.length - 1 && !final) break;
      const next = this.buffer[i] === '\r' && this.buffer[i + 1] === '\n' ? i + 2 : i + 1;
      this.line(this.buffer.slice(start, i));
      start = next;
      eol.lastIndex = next;
    }
    this.buffer = this.buffer.slice(start);
    if (this.buffer.length > this.maxChars) throw new RangeError(`an SSE line exceeds ${this.maxChars} characters`);
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return; // a comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
    this.fields++;
    switch (field) {
      case 'event':
        this.type = value;
        break;
      case 'data':
        this.data.push(value);
        this.dataChars += value.length;
        if (this.dataChars > this.maxChars) throw new RangeError(`an SSE event exceeds ${this.maxChars} characters`);
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
        this.fields--; // unknown fields are ignored
    }
  }

  private dispatch(): void {
    if (this.fields > 0) {
      const event: SseEvent = {
        type: this.type || 'message',
        data: this.data.join('\n'),
        hasData: this.data.length > 0,
      };
      if (this.id !== undefined) event.id = this.id;
      if (this.retry !== undefined) event.retry = this.retry;
      this.onEvent(event);
    }
    this.type = '';
    this.data = [];
    this.dataChars = 0;
    this.id = undefined;
    this.retry = undefined;
    this.fields = 0;
  }
}
