// Fails the build when a user-facing string bypasses localization:
//   1. package.json: a title, name, description, welcome text or walkthrough text that is not a
//      `%key%` placeholder, a placeholder that package.nls.json lacks, or a key nobody uses.
//   2. The sources: a string literal (or a template or concatenation with words in it) that goes
//      straight to where the user reads it:
//      - a VS Code API: the message and buttons of showInformationMessage/showWarningMessage/
//        showErrorMessage, the title/prompt/placeHolder/label/description/detail/tooltip/text/
//        name/validationMessage of an input box, quick pick, status bar item, tree item, progress,
//        webview panel or command, the label of a TreeItem, and so on;
//      - the chat page, through the host↔webview protocol (src/common/protocol.ts): an error's or
//        the setup banner's message, a refusal's reason, a notice, a job card's label;
//      - the page's DOM (src/webview): an element's text, its title/aria-label/placeholder/alt,
//        whether set as a property, with setAttribute, or through the page's own builders;
//      - any parameter or property of ours whose documentation says `@userFacing`.
//      Which API and which parameter is decided by the type checker: the declaration a parameter
//      or property resolves to (in @types/vscode, in protocol.ts, in TypeScript's DOM typings, or
//      tagged), and its name. An `l10n.t` call whose message is not a plain string literal is
//      refused too: the bundle exporter cannot see it. What the check cannot see is a literal that
//      reaches the user by way of a variable: such words go through l10n.t where they are written.
//   3. l10n/bundle.l10n.json is what `npm run l10n` (@vscode/l10n-dev) exports now: it is
//      exported again into a temporary folder and compared.
// Usage: node scripts/check-l10n.mjs [project folder]. test/lint/rules.test.ts feeds it
// deliberate violations to show that it bites.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const root = process.argv[2] ? resolve(process.argv[2]) : resolve(dirname(new URL(import.meta.url).pathname), '..');

/**
 * The folders checked: the features, the host layer, the chat page (through @vscode/l10n,
 * configured with the bundle the host sends) and the wiring.
 */
/**
 * Every folder of src/ but the plain client (src/api says what went wrong as typed reasons, and
 * src/host/core/errorWords.ts words them), found on disk: a new feature is checked from its first file.
 */
const CHECKED = [
  ...readdirSync(join(root, 'src'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'api')
    .map((d) => `src/${d.name}`),
  'src/extension.ts',
  'src/activation.ts',
];

/** Parameters and properties of VS Code's API that the user reads. */
const USER_FACING = new Set([
  'message',
  'items',
  'title',
  'prompt',
  'placeHolder',
  'placeholder',
  'label',
  'description',
  'detail',
  'tooltip',
  'text',
  'name',
  'validationMessage',
]);

/** The protocol's text fields: what the host sends the page to show (src/common/protocol.ts). */
const PROTOCOL = 'src/common/protocol.ts';
const PROTOCOL_TEXT = new Set(['message', 'reason', 'error', 'notices', 'label']);

/** What the page shows of an element, as TypeScript's DOM typings name it. */
const DOM_TEXT = new Set(['textContent', 'innerText', 'title', 'placeholder', 'alt', 'ariaLabel', 'label', 'nodes', 'data']);
/** The attributes the user reads (or hears), as set with setAttribute or in an attribute object. */
const ATTR_TEXT = new Set(['title', 'aria-label', 'aria-description', 'placeholder', 'alt']);

const problems = [];

// ---------------------------------------------------------------------------------------------
// 1. package.json and package.nls.json

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const nlsPath = join(root, 'package.nls.json');
const nls = existsSync(nlsPath) ? JSON.parse(readFileSync(nlsPath, 'utf8')) : {};
const usedKeys = new Set();

function manifestText(where, value) {
  if (typeof value !== 'string') return;
  const key = /^%(.+)%$/.exec(value)?.[1];
  if (key === undefined) problems.push(`package.json ${where}: "${value.slice(0, 60)}" is not a %key% placeholder for package.nls.json`);
  else if (!(key in nls)) problems.push(`package.json ${where}: %${key}% is not in package.nls.json`);
  else usedKeys.add(key);
}

const c = pkg.contributes ?? {};
manifestText('displayName', pkg.displayName);
manifestText('description', pkg.description);
manifestText('capabilities.untrustedWorkspaces.description', pkg.capabilities?.untrustedWorkspaces?.description);
for (const cfg of [c.configuration ?? []].flat()) {
  manifestText('configuration.title', cfg.title);
  for (const [name, p] of Object.entries(cfg.properties ?? {})) {
    for (const f of ['description', 'markdownDescription', 'deprecationMessage', 'markdownDeprecationMessage', 'patternErrorMessage'])
      manifestText(`${name}.${f}`, p[f]);
    for (const f of ['enumDescriptions', 'markdownEnumDescriptions']) (p[f] ?? []).forEach((d, i) => manifestText(`${name}.${f}[${i}]`, d));
    manifestText(`${name}.items.patternErrorMessage`, p.items?.patternErrorMessage);
  }
}
for (const cmd of c.commands ?? []) for (const f of ['title', 'shortTitle', 'category']) manifestText(`${cmd.command}.${f}`, cmd[f]);
for (const [where, list] of Object.entries(c.viewsContainers ?? {})) for (const v of list) manifestText(`viewsContainers.${where}.${v.id}.title`, v.title);
for (const list of Object.values(c.views ?? {})) for (const v of list) for (const f of ['name', 'contextualTitle']) manifestText(`views.${v.id}.${f}`, v[f]);
(c.viewsWelcome ?? []).forEach((w, i) => manifestText(`viewsWelcome[${i}](${w.view}).contents`, w.contents));
for (const s of c.submenus ?? []) manifestText(`submenus.${s.id}.label`, s.label);
// VS Code's Chat view: the participant and its commands, the tools as the user picks them, and MCP
// servers as listed. A tool's modelDescription and input schema are read by the model, not the user.
for (const p of c.chatParticipants ?? []) {
  for (const f of ['fullName', 'description']) manifestText(`chatParticipants.${p.id}.${f}`, p[f]);
  for (const cmd of p.commands ?? []) manifestText(`chatParticipants.${p.id}.${cmd.name}.description`, cmd.description);
}
for (const t of c.languageModelTools ?? []) for (const f of ['displayName', 'userDescription']) manifestText(`languageModelTools.${t.name}.${f}`, t[f]);
for (const m of c.mcpServerDefinitionProviders ?? []) manifestText(`mcpServerDefinitionProviders.${m.id}.label`, m.label);
for (const w of c.walkthroughs ?? []) {
  manifestText(`walkthroughs.${w.id}.title`, w.title);
  manifestText(`walkthroughs.${w.id}.description`, w.description);
  for (const s of w.steps ?? []) for (const f of ['title', 'description']) manifestText(`walkthroughs.${w.id}.${s.id}.${f}`, s[f]);
  for (const s of w.steps ?? []) manifestText(`walkthroughs.${w.id}.${s.id}.media.altText`, s.media?.altText);
}
for (const key of Object.keys(nls)) if (!usedKeys.has(key)) problems.push(`package.nls.json: "${key}" is used nowhere in package.json`);
for (const f of readdirSync(root).filter((n) => /^package\.nls\.[\w-]+\.json$/.test(n))) {
  for (const key of Object.keys(JSON.parse(readFileSync(join(root, f), 'utf8')))) if (!(key in nls)) problems.push(`${f}: "${key}" is not in package.nls.json`);
}

// ---------------------------------------------------------------------------------------------
// 2. The sources

function* tsFiles(path) {
  if (!existsSync(path)) return;
  if (statSync(path).isFile()) {
    if (path.endsWith('.ts')) yield path;
    return;
  }
  for (const name of readdirSync(path)) yield* tsFiles(join(path, name));
}

const checkedFiles = CHECKED.flatMap((p) => [...tsFiles(join(root, p))]);
const tsconfig = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(tsconfig.config ?? {}, ts.sys, root);
const program = ts.createProgram(checkedFiles, { ...options, noEmit: true });
const checker = program.getTypeChecker();

/** Declared in VS Code's typings (`declare module 'vscode'`), not in ours. */
function fromVscode(decl) {
  const file = decl?.getSourceFile().fileName ?? '';
  return /[\\/]@types[\\/]vscode[\\/]/.test(file);
}

/** Declared in TypeScript's own DOM typings. */
function fromDom(decl) {
  return /[\\/]typescript[\\/]lib[\\/]lib\.dom\.d\.ts$/.test(decl?.getSourceFile().fileName ?? '');
}

/** Whether `decl` (a parameter or property named `name`) is where the user reads a string. */
function isUserFacing(decl, name) {
  if (!decl) return false;
  if (fromVscode(decl)) return USER_FACING.has(name);
  if (fromDom(decl)) return DOM_TEXT.has(name);
  if (relative(root, decl.getSourceFile().fileName).split(sep).join('/') === PROTOCOL) return PROTOCOL_TEXT.has(name);
  return ts.getJSDocTags(decl).some((tag) => tag.tagName.text === 'userFacing');
}

/** The text a user would read: letters outside `$(codicon)` references. */
function hasWords(text) {
  return /\p{L}/u.test(text.replace(/\$\([\w~-]+\)/g, ''));
}

function isL10nCall(node) {
  return ts.isCallExpression(node) && /(^|\.)l10n\.t$/.test(node.expression.getText());
}

/** The literal words in `expr`, if it holds any that did not come from l10n.t. */
function literalWords(expr) {
  if (!expr) return undefined;
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return hasWords(expr.text) ? expr.text : undefined;
  if (ts.isTemplateExpression(expr)) {
    const parts = [expr.head.text, ...expr.templateSpans.map((s) => s.literal.text)].join('…');
    return hasWords(parts) ? parts : undefined;
  }
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isNonNullExpression(expr)) return literalWords(expr.expression);
  if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.PlusToken) return literalWords(expr.left) ?? literalWords(expr.right);
  if (ts.isBinaryExpression(expr) && [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(expr.operatorToken.kind))
    return literalWords(expr.left) ?? literalWords(expr.right);
  if (ts.isConditionalExpression(expr)) return literalWords(expr.whenTrue) ?? literalWords(expr.whenFalse);
  if (ts.isArrayLiteralExpression(expr)) {
    for (const el of expr.elements) {
      const w = literalWords(ts.isSpreadElement(el) ? el.expression : el);
      if (w) return w;
    }
  }
  return undefined;
}

function report(node, words, where) {
  const sf = node.getSourceFile();
  const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart());
  const file = relative(root, sf.fileName).split(sep).join('/');
  // The page and the vscode-free cores translate with the l10n.t they have; the rest with VS Code's.
  const via = /from ['"]vscode['"]/.test(sf.text) ? 'vscode.l10n.t' : 'l10n.t';
  problems.push(`${file}:${line + 1}:${character + 1}: "${words.slice(0, 60)}" goes to ${where} without ${via}`);
}

/** The user-facing declaration of property `name` in the type an object literal is checked against. */
function contextualProperty(objectLiteral, name) {
  const type = checker.getContextualType(objectLiteral);
  if (!type) return undefined;
  const types = type.isUnionOrIntersection() ? type.types : [type];
  for (const t of types) {
    const prop = checker.getPropertyOfType(checker.getApparentType(t), name);
    const decl = prop?.declarations?.find((d) => isUserFacing(d, name));
    if (decl) return decl;
  }
  return undefined;
}

/** The name of a property assignment (`title:`, `'aria-label':`), or undefined for a computed one. */
function propertyName(node) {
  return ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) ? node.name.text : undefined;
}

/** In an object of attributes (the page's `h(tag, { title: … })`), the ones the user reads. */
function checkAttributes(objectLiteral, where) {
  for (const p of objectLiteral.properties) {
    const name = ts.isPropertyAssignment(p) ? propertyName(p) : undefined;
    const words = name !== undefined && ATTR_TEXT.has(name) ? literalWords(p.initializer) : undefined;
    if (words) report(p.initializer, words, `${where} (${name})`);
  }
}

function visit(node) {
  if (isL10nCall(node)) {
    const [message] = node.arguments;
    if (!message || !ts.isStringLiteral(message))
      report(node, node.getText(), 'l10n.t with a message that is not a plain string literal, which @vscode/l10n-dev cannot export,');
    return; // Its arguments are what the translation fills in.
  }
  if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.arguments) {
    const decl = checker.getResolvedSignature(node)?.declaration;
    if (decl?.parameters) {
      const callee = node.expression.getText();
      // setAttribute('aria-label', …): the attribute's name says whether the user reads its value.
      const [attr, value] = node.arguments;
      if (fromDom(decl) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'setAttribute' && ts.isStringLiteral(attr)) {
        const words = ATTR_TEXT.has(attr.text) ? literalWords(value) : undefined;
        if (words) report(value, words, `${callee}(${attr.text})`);
      }
      node.arguments.forEach((arg, i) => {
        const param = decl.parameters[Math.min(i, decl.parameters.length - 1)];
        const name = param && ts.isIdentifier(param.name) ? param.name.text : '';
        if (!isUserFacing(param, name)) return;
        if (ts.isObjectLiteralExpression(arg)) return checkAttributes(arg, `${callee}(${name})`);
        const words = literalWords(arg);
        if (words) report(arg, words, `${callee}(${name})`);
      });
    }
  }
  if (ts.isPropertyAssignment(node) && ts.isObjectLiteralExpression(node.parent) && propertyName(node) !== undefined) {
    const name = propertyName(node);
    if (contextualProperty(node.parent, name)) {
      const words = literalWords(node.initializer);
      if (words) report(node.initializer, words, `the ${name} property`);
    }
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left)) {
    const name = node.left.name.text;
    const decl = checker.getSymbolAtLocation(node.left.name)?.declarations?.find((d) => isUserFacing(d, name));
    if (decl) {
      const words = literalWords(node.right);
      if (words) report(node.right, words, `${node.left.getText()}`);
    }
  }
  ts.forEachChild(node, visit);
}

for (const file of checkedFiles) {
  const sf = program.getSourceFile(file);
  if (sf) visit(sf);
}

// ---------------------------------------------------------------------------------------------
// 3. The bundle is what the exporter writes now

const bundlePath = join(root, 'l10n', 'bundle.l10n.json');
const exporter = join(root, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js');
if (pkg.l10n !== './l10n') problems.push('package.json: "l10n" must be "./l10n", where the bundle is');
if (!existsSync(bundlePath)) {
  problems.push('l10n/bundle.l10n.json is missing: run `npm run l10n`');
} else {
  const out = mkdtempSync(join(tmpdir(), 'check-l10n-'));
  try {
    const r = spawnSync(process.execPath, [exporter, 'export', '--outDir', out, './src'], { cwd: root, encoding: 'utf8' });
    const fresh = join(out, 'bundle.l10n.json');
    if (r.status !== 0 || !existsSync(fresh)) problems.push(`@vscode/l10n-dev export failed (${r.status}): ${r.stderr || r.stdout}`);
    else {
      const now = JSON.parse(readFileSync(fresh, 'utf8'));
      const checkedIn = JSON.parse(readFileSync(bundlePath, 'utf8'));
      const added = Object.keys(now).filter((k) => !(k in checkedIn));
      const gone = Object.keys(checkedIn).filter((k) => !(k in now));
      if (added.length || gone.length || readFileSync(fresh, 'utf8') !== readFileSync(bundlePath, 'utf8')) {
        problems.push(
          `l10n/bundle.l10n.json is stale: run \`npm run l10n\` and commit it (${added.length} new, ${gone.length} gone)` +
            [...added.map((k) => `\n  new: ${k.slice(0, 100)}`), ...gone.map((k) => `\n  gone: ${k.slice(0, 100)}`)].slice(0, 20).join(''),
        );
      }
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (problems.length) {
  console.error(`check-l10n: ${problems.length} problem(s):\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(
  `check-l10n: ${usedKeys.size} package.json texts in package.nls.json; ${checkedFiles.length} source files say nothing outside l10n; the bundle is current`,
);
