import { NONE, CODE, type Found, type ItemReader, type LineView } from './itemKinds';
import { foundAt, leadOf } from './literals';

// HTTP routes: Express-style `app.get('/path')`, `router.post(…)`, Flask's and FastAPI's
// `@app.route('/x')` / `@router.get('/x')`, Go's `http.HandleFunc("/x", …)` and its
// `"GET /x"` patterns, gin's `r.GET("/x")`. The name is the method and the path (`DELETE /v1/x`),
// or the path alone when the call does not say the method.

const METHODS = 'get|post|put|patch|delete|head|options';
const CALL = new RegExp(`\\b\\w+\\.(${METHODS}|all|route|api_route|use|Handle|HandleFunc|Any)\\(\\s*$`, 'i');
const PATTERN = /^(?:(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) )?(\/[^\s"'`]*)$/;
/** A literal that starts with a path: one test rules the other lines out. */
const HINT = /['"`](?:[A-Z]+ )?\//;
const WITH_METHOD = new RegExp(`^(?:${METHODS})$`, 'i');

/** `GET /x` → ['GET', '/x']; `/x` → [undefined, '/x']. */
const parts = (name: string): [string | undefined, string] => {
  const space = name.indexOf(' ');
  return space < 0 ? [undefined, name] : [name.slice(0, space), name.slice(space + 1)];
};

function read(line: LineView): readonly Found[] {
  if ((line.comment && !line.text.trimStart().startsWith('@')) || !HINT.test(line.text)) return NONE;
  const out: Found[] = [];
  for (const lit of line.literals) {
    const pattern = PATTERN.exec(lit.text);
    if (!pattern) continue;
    const call = CALL.exec(leadOf(line.text, lit));
    if (!call) continue;
    const method = pattern[1] ?? (WITH_METHOD.test(call[1]!) ? call[1]!.toUpperCase() : undefined);
    const name = method ? `${method} ${pattern[2]}` : pattern[2]!;
    out.push({ ...foundAt(line.text, lit.text, lit.start + 1), name });
  }
  return out;
}

export const routeItems: ItemReader = {
  kind: 'route',
  langs: CODE,
  read,
  describe(how, old, added) {
    const [oldMethod, oldPath] = parts(old.name);
    if (how === 'removed' || !added) return { oldForm: old.name, staleNeedles: [oldPath], updatedNeedles: [] };
    const [newMethod, newPath] = parts(added.name);
    // Only the method changed: the path alone cannot tell the old line from the new one.
    const samePath = oldPath === newPath;
    return {
      oldForm: old.name,
      newForm: added.name,
      staleNeedles: samePath && oldMethod ? [oldMethod, oldPath] : [oldPath],
      updatedNeedles: samePath && newMethod ? [newMethod, newPath] : [newPath],
    };
  },
  weights: { removed: 90, renamed: 85 },
};
