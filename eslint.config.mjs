// The project's rules, enforced by tools rather than hope. The layer rules are the ones that
// matter most: test/lint/rules.test.ts feeds each one a deliberate violation and expects it to bite.
//
// Layers are read from the path, never from a list of file names, so a new file lands in a layer
// by where it is put (issue 28):
//   src/api/          the plain service client: no vscode, nothing else of src/; the rest of
//                     src/ imports it through its index only
//   src/common/       shared with the webview: no vscode, no Node, nothing else of src/
//   src/webview/      the browser bundle: itself and src/common
//   src/<area>/core/  an area's vscode-free core (tested in Node and in the browser)
//   src/<area>/vscode/ its VS Code wiring
//   src/extension.ts, src/web/extension.ts, src/activation.ts: the entries, which hand one area's
//                     interface to another
// An area is every other folder of src/. `host` (settings, keys, log, words) and `assistant`
// (asking the docs) serve the features; every other area is a feature, and features never import
// each other. A file anywhere else is outside every layer, and refused. Import cycles, type-only
// ones included (which import-x/no-cycle skips), are refused by scripts/check-cycles.mjs.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

/** Node built-ins by exact name (a pattern `url` would also match `../api/url`), and any `node:` import. */
const NODE_NAMES = builtinModules.filter((m) => !m.startsWith('_'));

/** Folders of src/ that are layers by themselves, not areas with a core and a wiring. */
const FLAT = ['api', 'common', 'webview', 'web'];
/** Areas the features build on, in order: each may use the ones before it. */
export const SHARED_AREAS = ['host', 'assistant'];
/** Every other folder of src/ is a feature, found on disk, so a new one is fenced in at once. */
export const FEATURES = readdirSync(new URL('./src', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !FLAT.includes(d.name) && !SHARED_AREAS.includes(d.name))
  .map((d) => d.name);
const ENTRIES = ['src/extension.ts', 'src/activation.ts', 'src/web/**/*.ts'];
const INSIDE_A_LAYER = ['src/api/**/*.ts', 'src/common/**/*.ts', 'src/webview/**/*.ts', 'src/*/core/**/*.ts', 'src/*/vscode/**/*.ts', ...ENTRIES];

/**
 * What each layer may import from src/, as folders. A layer that is not listed for another is
 * fenced off from it with that pair's reason (import-x/no-restricted-paths resolves the import, so
 * no spelling of the path gets around it).
 */
function allowedFor(target) {
  const [area, side] = target.split('/');
  if (area === 'api') return ['api'];
  if (area === 'common') return ['common'];
  if (area === 'webview') return ['webview', 'common'];
  const below = SHARED_AREAS.includes(area) ? SHARED_AREAS.slice(0, SHARED_AREAS.indexOf(area)) : SHARED_AREAS;
  const cores = [...below, area].map((a) => `${a}/core`);
  const wiring = side === 'vscode' ? [...below, area].map((a) => `${a}/vscode`) : [];
  return ['api', 'common', ...cores, ...wiring];
}

const AREAS = [...SHARED_AREAS, ...FEATURES];
const LAYERS = ['api', 'common', 'webview', ...AREAS.flatMap((a) => [`${a}/core`, `${a}/vscode`])];

function reason(target, from) {
  const [tArea, tSide] = target.split('/');
  const [fArea, fSide] = from.split('/');
  if (target === 'api') return 'src/api is the plain service client: no other src/ folder';
  if (target === 'common') return 'src/common is shared with the webview: no other src/ folder';
  if (target === 'webview') return 'src/webview is a browser bundle: only itself, src/common and browser packages';
  if (FEATURES.includes(tArea) && FEATURES.includes(fArea) && tArea !== fArea)
    return 'Features never import each other: what one needs from another is an interface in src/common, handed over by src/activation.ts';
  if (from === 'webview') return 'src/webview is the browser bundle, loaded by the page: the host never imports it';
  if (tSide === 'core' && fSide === 'vscode') return `src/${target} is a vscode-free core: it may not import VS Code wiring (src/${from})`;
  if (SHARED_AREAS.includes(tArea)) return `src/${tArea} serves the features and must not depend on them, nor on what comes after it (src/${from})`;
  return `src/${target} may not import src/${from}`;
}

const zones = LAYERS.flatMap((target) => {
  const allowed = allowedFor(target);
  return LAYERS.filter((from) => !allowed.includes(from)).map((from) => ({ target: `./src/${target}`, from: `./src/${from}`, message: reason(target, from) }));
});

/**
 * Everything under src/ but the Node entry also runs in a browser's extension host (package.json
 * "browser": github.dev, vscode.dev), where Node's modules and globals do not exist.
 */
const WEB_WHY = 'Everything under src/ also runs in the browser extension host (src/web/extension.ts); only src/extension.ts, the Node entry, may use Node';
/** Node's globals by name; `globalThis.setImmediate` with a fallback stays possible. */
const NODE_GLOBALS = ['process', 'Buffer', 'setImmediate', 'clearImmediate', '__dirname', '__filename', 'require', 'module', 'global'];

/**
 * src/api's files, from outside it: the client's surface is its index (src/api/index.ts), so what
 * the rest of src/ relies on is listed in one place, and the rest may change.
 */
const THROUGH_THE_INDEX = {
  regex: '(^|/)api/',
  message: 'Import the service client from src/api itself (its index.ts), not from a file inside it: add what is missing to src/api/index.ts.',
};

/**
 * `vscode` and Node's modules, for the layers that may use neither (or, for the wiring, only
 * vscode). A Node import is refused with the browser host's reason, or with the layer's own
 * (`nodeWhy`) where that is the stronger one: the webview and what it shares run in a page.
 */
function imports(files, { vscode, why, nodeWhy: ownNodeWhy = false }) {
  const nodeWhy = `${ownNodeWhy ? why : WEB_WHY} (imports a Node built-in).`;
  const paths = [
    ...(vscode ? [] : [{ name: 'vscode', message: `${why}: it must not import vscode.` }]),
    ...NODE_NAMES.map((name) => ({ name, message: nodeWhy })),
  ];
  const patterns = [{ group: ['node:*'], message: nodeWhy }, ...(files.some((f) => f.startsWith('src/api/')) ? [] : [THROUGH_THE_INDEX])];
  return { files, rules: { 'no-restricted-imports': ['error', { paths, patterns }] } };
}

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test-results/**', 'bench/.build/**', '**/*.vsix', 'test/lint/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { console: 'readonly', process: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
    rules: {
      // TypeScript checks these better (tsconfig's noUnused*, and no-undef is meaningless with types).
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Tests reach into untyped page globals and JSON bodies on purpose.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    rules: {
      // One job per file: past this a file is doing several.
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      // The extension host never logs to the console: everything goes through the redacting Log.
      'no-console': 'error',
      'import-x/no-restricted-paths': ['error', { zones }],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Program',
          message:
            'This file is outside every layer: put it in src/api, src/common, src/webview, src/<area>/core (vscode-free) or src/<area>/vscode (the wiring); see eslint.config.mjs',
        },
      ],
    },
  },
  { files: INSIDE_A_LAYER, rules: { 'no-restricted-syntax': 'off' } },
  // Node, everywhere but the Node entry.
  imports(['src/**/*.ts'], { vscode: true }),
  {
    files: ['src/**/*.ts'],
    ignores: ['src/extension.ts'],
    rules: { 'no-restricted-globals': ['error', ...NODE_GLOBALS.map((name) => ({ name, message: `${WEB_WHY}: no \`${name}\` there.` }))] },
  },
  { files: ['src/extension.ts'], rules: { 'no-restricted-imports': 'off' } },
  // vscode, in every vscode-free layer.
  imports(['src/api/**/*.ts'], { vscode: false, why: 'src/api is the plain service client' }),
  imports(['src/common/**/*.ts'], { vscode: false, nodeWhy: true, why: 'src/common is shared with the webview' }),
  imports(['src/webview/**/*.ts'], { vscode: false, nodeWhy: true, why: 'src/webview is a browser bundle' }),
  imports(['src/*/core/**/*.ts'], { vscode: false, nodeWhy: true, why: 'A core/ folder is vscode-free (tested in Node and in the browser)' }),
  eventsComeFromTheKit(),
);

/**
 * Issue 28: one way to fire an event. Emitter (src/common/event.ts) is a vscode.Event, and reports
 * what a listener throws to the redacting log; a vscode.EventEmitter or a listener set made by hand
 * loses it. A listener set is recognised by its name or by a collection of functions. The check is
 * no-restricted-syntax under a name of its own, so the layer rule's use of it stays apart.
 */
function eventsComeFromTheKit() {
  const message = 'A hand-made listener set: fire events with Emitter (src/common/event.ts), which reports what a listener throws.';
  const named = '/^_?(listeners|handlers|subscribers|callbacks|observers)$/i';
  const selectors = [
    `PropertyDefinition[key.name=${named}]`,
    `VariableDeclarator[id.name=${named}][init.type=/^(NewExpression|ArrayExpression)$/]`,
    'NewExpression[callee.name=/^(Set|Map|Array)$/] > TSTypeParameterInstantiation > TSFunctionType',
  ];
  // A dependency's `onX` callback is an event with one listener and no error sink: offer an Event.
  const callback = 'A callback named like an event (onX in an interface): offer an Event from an Emitter (src/common/event.ts) and let the user subscribe.';
  const callbacks = ['TSMethodSignature[key.name=/^on[A-Z]/]', 'TSPropertySignature[key.name=/^on[A-Z]/] > TSTypeAnnotation > TSFunctionType'];
  return {
    files: ['src/**/*.ts'],
    plugins: { events: { rules: { 'no-hand-made': builtinRules.get('no-restricted-syntax') } } },
    rules: {
      'events/no-hand-made': [
        'error',
        ...selectors.map((selector) => ({ selector, message })),
        ...callbacks.map((selector) => ({ selector, message: callback })),
      ],
      'no-restricted-properties': [
        'error',
        { object: 'vscode', property: 'EventEmitter', message: 'Fire events with Emitter (src/common/event.ts): its event is a vscode.Event.' },
      ],
    },
  };
}
