import { createParser, type EventSourceParser } from 'eventsource-parser';
import { itemFromSseData, type StreamItem } from './chunks';

// Bytes of a v2 answer (text/event-stream) to stream items. Bytes may be split anywhere, even
// inside a UTF-8 sequence or a `data:` line; the TextDecoder (stream: true) and the SSE parser
// both carry the remainder over to the next push.

/** Upper bound on one buffered event, so a runaway stream cannot take all memory. */
const MAX_EVENT_CHARS = 64 * 1024 * 1024;

export interface StreamDecoder {
  /** Items completed by these bytes, in order. */
  push(bytes: Uint8Array): StreamItem[];
  /** Items still pending when the body ended cleanly. */
  end(): StreamItem[];
}

export function createSseDecoder(): StreamDecoder {
  const text = new TextDecoder('utf-8');
  let out: StreamItem[] = [];
  let overflow = false;
  const parser: EventSourceParser = createParser({
    // `event:` names are ignored, as the SDK ignores them: the chunk's own `type` is what counts.
    onEvent: (event) => out.push(itemFromSseData(event.data)),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
      // Unknown fields and bad `retry:` lines are noise around the data; the spec says ignore them.
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });

  const drain = (): StreamItem[] => {
    const items = out;
    out = [];
    if (overflow) {
      overflow = false;
      items.push({ kind: 'skip', reason: 'malformed', detail: `an event larger than ${MAX_EVENT_CHARS / 1024 / 1024} MB` });
      parser.reset();
    }
    return items;
  };

  return {
    push(bytes) {
      const chunk = text.decode(bytes, { stream: true });
      if (chunk !== '') parser.feed(chunk);
      return drain();
    },
    end() {
      const rest = text.decode();
      if (rest !== '') parser.feed(rest);
      // A server that closes right after its last `data:` line, without the blank line that ends
      // an event, still meant that event; a truncated one is then reported as malformed.
      parser.feed('\n\n');
      return drain();
    },
  };
}
