// The two checks every reader of the service's JSON starts with (the stream chunks, the v1 data
// stream, the reducer). Plain functions, cheap enough for every chunk.

/** A JSON object's fields, before they are checked one by one. */
export type Obj = Record<string, unknown>;

/** An object (not null, not an array). */
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export const str = (v: unknown): v is string => typeof v === 'string';
