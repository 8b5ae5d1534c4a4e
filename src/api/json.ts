import { redact } from './redact';

// The two checks every reader of the service's JSON starts with (the stream chunks, the v1 data
// stream, the reducer). Plain functions, cheap enough for every chunk.

/** A JSON object's fields, before they are checked one by one. */
export type Obj = Record<string, unknown>;

/** An object (not null, not an array). */
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export const str = (v: unknown): v is string => typeof v === 'string';

/** A field of the body itself: never one inherited through a (polluted) prototype. */
export function own(o: Record<string, unknown>, field: string): unknown {
  return Object.hasOwn(o, field) ? o[field] : undefined;
}

/** A value the service sent, as an error names it: its kind, or a short, redacted piece of a string. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'string') return `"${redact(v).slice(0, 40)}${v.length > 40 ? '…' : ''}"`;
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v).slice(0, 20)}`;
}
