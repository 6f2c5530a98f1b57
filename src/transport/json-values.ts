// Complete JSON values cut from a body as it arrives: a server may send a message and hold the body open, and what
// came must be seen when it came, not when (or whether) the body ends.

/**
 * Cuts top-level JSON objects and arrays from text pushed in pieces, each as soon as its closing bracket came. Anything
 * else at the top level (a number, plain text) stops the cutting: from there on the text is only kept, for `rest()`.
 * Whether a value is valid JSON is the parser's to say; this only finds where it ends.
 */
export class JsonValues {
  private text = '';
  /** Where the next value starts in `text` (text before it was handed out). */
  private start = 0;
  /** How far `text` was scanned. */
  private scanned = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private stopped = false;

  /** Adds text; returns the values that ended in it, in order. */
  push(piece: string): string[] {
    this.text += piece;
    const values: string[] = [];
    for (; !this.stopped && this.scanned < this.text.length; this.scanned++) {
      const c = this.text[this.scanned];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
        continue;
      }
      if (this.depth === 0) {
        if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
        if (c !== '{' && c !== '[') {
          this.stopped = true;
          break;
        }
        this.start = this.scanned;
      }
      if (c === '"') this.inString = true;
      else if (c === '{' || c === '[') this.depth++;
      else if ((c === '}' || c === ']') && --this.depth === 0) {
        values.push(this.text.slice(this.start, this.scanned + 1));
        this.start = this.scanned + 1;
      }
    }
    // Keep only what no value handed out holds.
    if (this.depth === 0 && !this.stopped) this.start = this.scanned;
    this.text = this.text.slice(this.start);
    this.scanned -= this.start;
    this.start = 0;
    return values;
  }

  /** The text after the last value: an unfinished value, or what stopped the cutting. */
  rest(): string {
    return this.text;
  }
}
