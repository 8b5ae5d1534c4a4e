// Fails the build when package.json declares or references a command that the code never
// registers, or when a menu, keybinding or welcome link names a command that is not declared.
// (After vscode-pull-request-github's scripts/check-commands.js.)
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';

// The project to check: this repository, or the folder given (test/lint/rules.test.ts feeds it a
// deliberate violation to show that it bites).
const root = process.argv[2] ? resolve(process.argv[2]) : resolve(dirname(new URL(import.meta.url).pathname), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const c = pkg.contributes ?? {};
// Texts may be `%key%` placeholders for package.nls.json (localization): links are read from the English.
const nlsFile = join(root, 'package.nls.json');
const nls = existsSync(nlsFile) ? JSON.parse(readFileSync(nlsFile, 'utf8')) : {};
const text = (s) => nls[/^%(.+)%$/.exec(s ?? '')?.[1]] ?? s ?? '';

const declared = new Set((c.commands ?? []).map((x) => x.command));
const referenced = new Map(); // command -> where
const note = (cmd, where) => referenced.set(cmd, [...(referenced.get(cmd) ?? []), where]);
for (const [menu, items] of Object.entries(c.menus ?? {})) for (const it of items) if (it.command) note(it.command, `menus.${menu}`);
for (const kb of c.keybindings ?? []) note(kb.command, 'keybindings');
for (const w of c.viewsWelcome ?? []) for (const m of text(w.contents).matchAll(/\(command:([\w.]+)/g)) note(m[1], `viewsWelcome(${w.view})`);
for (const wt of c.walkthroughs ?? [])
  for (const st of wt.steps ?? []) for (const m of text(st.description).matchAll(/\(command:([\w.]+)/g)) note(m[1], `walkthroughs(${wt.id}.${st.id})`);

// Commands VS Code generates for each view (`<viewId>.focus`, …) need no registration.
const viewIds = new Set(
  Object.values(c.views ?? {})
    .flat()
    .map((v) => v.id),
);
const builtIn = (cmd) => [...viewIds].some((v) => cmd.startsWith(`${v}.`));

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (name.endsWith('.ts')) yield p;
  }
}
// A command counts as registered only where its id is the first argument of a registerCommand /
// registerTextEditorCommand call. An id that merely appears in a file (a menu id, a command the
// code runs, a comment) does not count: removing the real registration must fail this check.
// The extension host check itself lives in the integration and e2e suites; this one needs no VS Code.
const REGISTRATION = /\bregister(?:TextEditor)?Command\(\s*['"`](docsAssistant\.[\w.]+)['"`]/g;
const registered = new Set();
for (const f of sources(join(root, 'src'))) {
  for (const m of readFileSync(f, 'utf8').matchAll(REGISTRATION)) registered.add(m[1]);
}

const problems = [];
for (const cmd of declared) {
  if (!registered.has(cmd)) problems.push(`declared but never registered: ${cmd}`);
}
for (const [cmd, where] of referenced) {
  if (!declared.has(cmd) && !builtIn(cmd)) problems.push(`referenced in ${where.join(', ')} but not declared in contributes.commands: ${cmd}`);
}
if (problems.length) {
  console.error(`check-commands: ${problems.length} problem(s):\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`check-commands: ${declared.size} declared commands, all registered; ${referenced.size} references, all declared`);
