import { createParser, type EventSourceParser } from 'eventsource-parser';
import { itemFromSseData, type StreamItem } from './chunks';
import { MAX_LINE_CHARS } from './limits';

// Bytes of a v2 answer (text/event-stream) to stream items. Bytes may be split anywhere, even
// inside a UTF-8 sequence or a `data:` line; the TextDecoder (stream: true) and the SSE parser
// both carry the remainder over to the next push.
//
// Bounded: a line that grows past MAX_LINE_CHARS is given up on as soon as it gets there (one skip
// report), and the rest of it is dropped as it arrives, unread, until its line break. An event
// built of many shorter `data:` lines is held to the same cap by the parser's own buffer limit.

export interface StreamDecoder {
  /** Items completed by these bytes, in order. */
  push(bytes: Uint8Array): StreamItem[];
  /** Items still pending when the body ended cleanly. */
  end(): StreamItem[];
}

const TOO_LONG = `an event longer than ${MAX_LINE_CHARS / 1024 / 1024} MB`;

const LF = 10;
const CR = 13;

/** Index of the first line break (LF or CR) in `s` at or after `from`, or -1. */
function firstBreak(s: string, from: number): number {
  const lf = s.indexOf('\n', from);
  const cr = s.indexOf('\r', from);
  return lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
}

/** Index of the last line break (LF or CR) in `s`, or -1. */
function lastBreak(s: string): number {
  return Math.max(s.lastIndexOf('\n'), s.lastIndexOf('\r'));
}

export function createSseDecoder(): StreamDecoder {
  const text = new TextDecoder('utf-8');
  let out: StreamItem[] = [];
  let overflow = false;
  /** Characters of the current, unfinished line that the parser holds. */
  let lineChars = 0;
  // Dropping the rest of an event that passed the cap, up to the blank line that ends it.
  let discarding = false;
  let atLineStart = false;
  /** The last character dropped was a CR whose LF may come in the next chunk. */
  let afterCR = false;
  const parser: EventSourceParser = createParser({
    // `event:` names are ignored, as the SDK ignores them: the chunk's own `type` is what counts.
    onEvent: (event) => out.push(itemFromSseData(event.data)),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
      // Unknown fields and bad `retry:` lines are noise around the data; the spec says ignore them.
    },
    maxBufferSize: MAX_LINE_CHARS,
  });

  /** Reports the event once, drops what the parser holds of it, and drops the rest as it comes. */
  const giveUp = (lineEnded: boolean, endedWithCR: boolean): void => {
    parser.reset();
    out.push({ kind: 'skip', reason: 'malformed', detail: TOO_LONG });
    discarding = true;
    atLineStart = lineEnded;
    afterCR = endedWithCR;
    lineChars = 0;
  };

  /** Skips to just after the blank line that ends the dropped event; -1 when it is not in `chunk`. */
  const discard = (chunk: string): number => {
    let i = 0;
    while (i < chunk.length) {
      if (atLineStart) {
        const c = chunk.charCodeAt(i);
        if (afterCR && c === LF) {
          afterCR = false;
          i++;
          continue;
        }
        afterCR = false;
        if (c === LF) return i + 1;
        if (c === CR) return chunk.charCodeAt(i + 1) === LF ? i + 2 : i + 1;
        atLineStart = false;
      }
      const br = firstBreak(chunk, i);
      if (br === -1) return -1;
      atLineStart = true;
      if (chunk.charCodeAt(br) === CR && br + 1 === chunk.length) afterCR = true;
      i = chunk.charCodeAt(br) === CR && chunk.charCodeAt(br + 1) === LF ? br + 2 : br + 1;
    }
    return -1;
  };

  /** Feeds `chunk` to the parser, keeping every unfinished line and event under the cap. */
  const feed = (chunk: string): void => {
    let piece = chunk;
    if (discarding) {
      const resume = discard(chunk);
      if (resume === -1) return;
      discarding = false;
      lineChars = 0;
      piece = chunk.slice(resume);
    }
    if (piece === '') return;
    const last = lastBreak(piece);
    if (last === -1 && lineChars + piece.length > MAX_LINE_CHARS) {
      // Not even handed to the parser: this line will never be read.
      giveUp(false, false);
      return;
    }
    parser.feed(piece);
    lineChars = last === -1 ? lineChars + piece.length : piece.length - last - 1;
    if (overflow) {
      // Many `data:` lines of one event together passed the cap.
      overflow = false;
      giveUp(lineChars === 0, piece.charCodeAt(piece.length - 1) === CR);
    } else if (lineChars > MAX_LINE_CHARS) {
      giveUp(false, false);
    }
  };

  const drain = (): StreamItem[] => {
    const items = out;
    out = [];
    return items;
  };

  return {
    push(bytes) {
      const chunk = text.decode(bytes, { stream: true });
      if (chunk !== '') feed(chunk);
      return drain();
    },
    end() {
      const rest = text.decode();
      if (rest !== '') feed(rest);
      // A server that closes right after its last `data:` line, without the blank line that ends
      // an event, still meant that event; a truncated one is then reported as malformed. An event
      // that was given up on has been reported already.
      if (!discarding) parser.feed('\n\n');
      return drain();
    },
  };
}
