// Tiny run-time schemas that also give the TypeScript type of what they accept, so that a
// message's type and its check are one declaration (`Infer<typeof schema>`), never two tables
// kept in step by hand. Only what the webview protocol needs: bounded strings, string literals,
// optional fields and objects. An object keeps only the fields its schema names: whatever else
// arrives is dropped, never passed on.
//
// Why not zod: the host bundle has a 150 KB budget, and the webview, which also imports the
// protocol, never validates its own requests. These few lines do what the protocol needs.

const INVALID: unique symbol = Symbol('invalid');

export interface Schema<T> {
  /** `value` as a T (objects are copied, with only the known fields), or INVALID. */
  readonly read: (value: unknown) => T | typeof INVALID;
}

/** A schema whose field may be left out (or be `undefined`) in an object. */
export interface OptionalSchema<T> extends Schema<T | undefined> {
  readonly optional: true;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

/** A string of at most `max` characters. */
export function str(max: number): Schema<string> {
  return { read: (v) => (typeof v === 'string' && v.length <= max ? v : INVALID) };
}

/** One of the given strings. */
export function literal<const T extends string>(...values: T[]): Schema<T> {
  const allowed: ReadonlySet<string> = new Set(values);
  return { read: (v) => (typeof v === 'string' && allowed.has(v) ? (v as T) : INVALID) };
}

export function optional<T>(schema: Schema<T>): OptionalSchema<T> {
  return { optional: true, read: (v) => (v === undefined ? undefined : schema.read(v)) };
}

type Shape = Record<string, Schema<unknown>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends OptionalSchema<unknown> ? K : never }[keyof S];
type Flat<T> = { [K in keyof T]: T[K] };
type ObjectOf<S extends Shape> = [keyof S] extends [never]
  ? Record<string, never>
  : Flat<{ [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Exclude<Infer<S[K]>, undefined> }>;

/**
 * An object (not an array) with these fields, read as own properties only. The result is a new
 * object holding the named fields that are present; every other field is dropped.
 */
export function object<S extends Shape>(shape: S): Schema<ObjectOf<S>> {
  const fields = Object.entries(shape);
  return {
    read(v) {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return INVALID;
      const out: Record<string, unknown> = {};
      for (const [key, field] of fields) {
        const value = field.read(Object.hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined);
        if (value === INVALID) return INVALID;
        if (value !== undefined) out[key] = value;
      }
      return out as ObjectOf<S>;
    },
  };
}

/** `value` as the schema reads it, or undefined when it does not fit (for schemas of objects). */
export function parse<T extends object>(schema: Schema<T>, value: unknown): T | undefined {
  const out = schema.read(value);
  return out === INVALID ? undefined : out;
}

/** An object with no fields (whatever it holds is dropped). */
export const empty = object({});
