/** Pieces are joined into strings of at most about this many characters (see docs/performance.md). */
const PIECE = 16 * 1024;
/** An answer is written field by field down to this depth, and list by list one level further. */
const FIELD_DEPTH = 2;
const LIST_DEPTH = 3;

/** An object JSON.stringify writes field by field: no class, no `toJSON`. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
};
/** Whether `write` walks the value at this depth rather than writing it by one JSON.stringify. */
const walkable = (v: unknown, depth: number): boolean =>
  Array.isArray(v)
    ? depth <= LIST_DEPTH && typeof (v as { toJSON?: unknown }).toJSON !== 'function'
    : depth <= FIELD_DEPTH && isPlainObject(v);

/**
 * `JSON.stringify(value) + suffix`, the same text, built without ever holding all of a large answer as one
 * string: as a string when it is short, as its UTF-8 bytes otherwise. Large batches are answered faster
 * in small pieces than as one huge string and its copies (docs/performance.md). Each piece is written by
 * `JSON.stringify`, so escaping, key order, `undefined` and `toJSON` behave exactly as in one call.
 *
 * @example
 * reply.send(jsonText({ data }, '\n')); // a string for a small answer, a Buffer for a large one
 */
export function jsonText(value: unknown, suffix = ''): string | Buffer {
  // Most answers (a lookup, a page of a search) are a few kB: one JSON.stringify writes them faster.
  if (!hasLongList(value, 0)) return JSON.stringify(value) + suffix;
  const pieces = new Pieces();
  /** Writes a value that is `walkable` at its depth: its items or fields, each walked or in one piece. */
  const walk = (v: unknown, depth: number): void => {
    if (Array.isArray(v)) {
      pieces.put('[');
      for (let i = 0; i < v.length; i++) {
        if (i) pieces.put(',');
        const item = v[i];
        if (walkable(item, depth + 1)) walk(item, depth + 1);
        // What JSON.stringify writes for an item it cannot represent (undefined, a function, a symbol).
        else pieces.put(JSON.stringify(item) ?? 'null');
      }
      pieces.put(']');
      return;
    }
    pieces.put('{');
    let first = true;
    const object = v as Record<string, unknown>;
    for (const key in object) {
      if (!Object.hasOwn(object, key)) continue;
      const field = object[key];
      const walked = walkable(field, depth + 1);
      const text = walked ? undefined : JSON.stringify(field);
      // A field JSON.stringify cannot represent is left out, as it leaves it out.
      if (!walked && text === undefined) continue;
      pieces.put(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
      first = false;
      if (walked) walk(field, depth + 1);
      else pieces.put(text as string);
    }
    pieces.put('}');
  };
  if (walkable(value, 0)) walk(value, 0);
  else pieces.put(JSON.stringify(value) ?? 'undefined');
  pieces.put(suffix);
  return pieces.end();
}

/** More items than any answer that is not a batch holds (a search page has at most 50). */
const LONG_LIST = 64;

/** Whether a list of more than LONG_LIST items lies where `jsonText` walks: only then is it worth walking. */
function hasLongList(v: unknown, depth: number): boolean {
  if (Array.isArray(v)) {
    if (depth > LIST_DEPTH) return false;
    if (v.length > LONG_LIST) return true;
    for (const item of v) if (hasLongList(item, depth + 1)) return true;
    return false;
  }
  if (depth > FIELD_DEPTH || !isPlainObject(v)) return false;
  for (const key in v) if (Object.hasOwn(v, key) && hasLongList(v[key], depth + 1)) return true;
  return false;
}

/**
 * A text written piece by piece and never joined into one string: pieces are joined into strings of at
 * most ~PIECE characters (plus the last piece put), and those are encoded into one buffer at the end.
 */
export class Pieces {
  readonly #done: string[] = [];
  #current = '';

  put(text: string): void {
    this.#current += text;
    if (this.#current.length >= PIECE) {
      this.#done.push(this.#current);
      this.#current = '';
    }
  }

  /** The text: a string when it never grew past one piece, its UTF-8 bytes otherwise. */
  end(): string | Buffer {
    const pieces = this.#done;
    if (!pieces.length) return this.#current;
    pieces.push(this.#current);
    let length = 0;
    for (const piece of pieces) length += Buffer.byteLength(piece);
    const bytes = Buffer.allocUnsafe(length);
    let offset = 0;
    for (const piece of pieces) offset += bytes.write(piece, offset);
    return bytes;
  }
}
