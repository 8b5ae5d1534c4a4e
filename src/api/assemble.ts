import { createSseDecoder, type StreamDecoder } from './sse';
import type { AssembledMessage } from './types';
import type { StreamItem } from './chunks';
import { createEmptyMessage, reduceChunk } from './reducer';
import { createV1Decoder } from './v1DataStream';

// The stream pipeline without the network: decoder items applied to a message. The client runs
// exactly this per chunk of bytes; tests and replays of recorded streams run it on bytes at hand.

export type StreamFormat = 'sse' | 'v1';

export function createDecoder(format: StreamFormat): StreamDecoder {
  return format === 'sse' ? createSseDecoder() : createV1Decoder();
}

/** Applies one item other than `done`: a chunk is reduced, a skipped one is counted. Mutates `message`. */
export function applyStreamItem(message: AssembledMessage, item: Exclude<StreamItem, { kind: 'done' }>): AssembledMessage {
  if (item.kind === 'skip') message.skippedChunks++;
  else reduceChunk(message, item.chunk);
  return message;
}

/**
 * Assembles a whole recorded answer from its bytes, however they are split. Stops at `[DONE]`
 * as the client does. `done` says whether `[DONE]` was seen.
 */
export function assembleFromBytes(pieces: Iterable<Uint8Array>, format: StreamFormat): { message: AssembledMessage; done: boolean } {
  const decoder = createDecoder(format);
  const message = createEmptyMessage();
  const apply = (items: StreamItem[]): boolean => {
    for (const item of items) {
      if (item.kind === 'done') return true;
      applyStreamItem(message, item);
    }
    return false;
  };
  for (const bytes of pieces) if (apply(decoder.push(bytes))) return { message, done: true };
  return { message, done: apply(decoder.end()) };
}
