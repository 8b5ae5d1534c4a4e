// The project's rules, enforced by tools rather than hope. The layer rules are the ones that
// matter most: test/lint/rules.test.ts feeds each one a deliberate violation and expects it to bite.
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

/** Node built-ins by exact name (a pattern `url` would also match `../api/url`), and any `node:` import. */
const NODE_NAMES = builtinModules.filter((m) => !m.startsWith('_'));
/** `group` patterns match the import string as written, so a folder is named as any relative path reaches it. */
const folder = (name, message) => ({ group: [`../${name}`, `../${name}/*`, `../../${name}`, `../../${name}/*`, `./${name}/*`], message });
const nodeBuiltins = (message) => ({ group: ['node:*'], message });

/**
 * Modules inside the features that must stay free of `vscode`, because they run in Node tests
 * against the emulator or in the browser tests (the feature's core, below its VS Code wiring).
 */
export const VSCODE_FREE_CORES = [
  'src/agent/agentJobs.ts',
  'src/agent/jobStore.ts',
  'src/agent/poller.ts',
  'src/agent/rateBudget.ts',
  'src/agent/prompt.ts',
  'src/agent/jobPresentation.ts',
  'src/agent/pullRequestLink.ts',
  'src/chat/chatSession.ts',
  'src/chat/turnRunner.ts',
  'src/chat/turnRequest.ts',
  'src/chat/patchQueue.ts',
  'src/chat/chatStore.ts',
  'src/chat/answerView.ts',
  'src/chat/postPacer.ts',
  'src/chat/webviewHtml.ts',
  'src/chat/webviewMessages.ts',
  'src/chat/pageChannel.ts',
  'src/chat/pageOutbox.ts',
  'src/chat/imagePolicy.ts',
  'src/chat/imageLoader.ts',
  'src/chat/historySearch.ts',
  'src/chat/exportMarkdown.ts',
  'src/host/errorWords.ts',
  'src/host/keyWords.ts',
  'src/host/selectionContext.ts',
  'src/host/symbolTarget.ts',
  'src/host/redactingLog.ts',
  'src/host/urlUserInfo.ts',
  'src/participant/threads.ts',
  'src/participant/history.ts',
  'src/participant/answerRelay.ts',
  'src/participant/fixDrafts.ts',
  'src/participant/toolResult.ts',
  'src/participant/toolInvocation.ts',
  'src/codeActions/actionPlan.ts',
];

/**
 * Everything under src/ but the Node entry also runs in a browser's extension host (package.json
 * "browser": github.dev, vscode.dev), where Node's modules and globals do not exist.
 */
const WEB_WHY = 'Everything under src/ also runs in the browser extension host (src/web/extension.ts); only src/extension.ts, the Node entry, may use Node';
/** Node's globals by name; `globalThis.setImmediate` with a fallback stays possible. */
const NODE_GLOBALS = ['process', 'Buffer', 'setImmediate', 'clearImmediate', '__dirname', '__filename', 'require', 'module', 'global'];

/**
 * One `no-restricted-imports` per layer; `paths` and `patterns` are that layer's whole list.
 * Every layer is free of Node: `node` names the layer's own reason, else the browser host's.
 */
function layer(files, { vscode = false, node = false, folders = [], why }) {
  const nodeWhy = node ? `${why} (imports a Node built-in).` : `${WEB_WHY} (imports a Node built-in).`;
  const paths = [
    ...(vscode ? [{ name: 'vscode', message: `${why}: it must not import vscode.` }] : []),
    ...NODE_NAMES.map((name) => ({ name, message: nodeWhy })),
  ];
  const patterns = [...folders.map((f) => folder(f, `${why} (imports src/${f}).`)), nodeBuiltins(nodeWhy)];
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
    rules: {
      // One job per file: past this a file is doing several.
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      // The extension host never logs to the console: everything goes through the redacting Log.
      'no-console': 'error',
    },
  },
  layer(['src/api/**/*.ts'], {
    vscode: true,
    folders: ['agent', 'chat', 'participant', 'codeActions', 'webview', 'host', 'common'],
    why: 'src/api is the plain service client: no vscode, no other src/ folder',
  }),
  layer(['src/common/**/*.ts'], {
    vscode: true,
    node: true,
    folders: ['agent', 'chat', 'participant', 'codeActions', 'webview', 'host', 'api'],
    why: 'src/common is shared with the webview: no vscode, no Node, no other src/ folder',
  }),
  layer(['src/webview/**/*.ts'], {
    vscode: true,
    node: true,
    folders: ['agent', 'chat', 'participant', 'codeActions', 'host', 'api'],
    why: 'src/webview is a browser bundle: only itself, src/common and browser packages',
  }),
  {
    files: ['src/**/*.ts'],
    ignores: ['src/extension.ts'],
    rules: { 'no-restricted-globals': ['error', ...NODE_GLOBALS.map((name) => ({ name, message: `${WEB_WHY}: no \`${name}\` there.` }))] },
  },
  // The two entries and the wiring they share: no feature folder is off limits, Node is.
  layer(['src/activation.ts', 'src/web/**/*.ts'], { why: WEB_WHY }),
  layer(['src/host/**/*.ts'], {
    folders: ['agent', 'chat', 'participant', 'codeActions', 'webview'],
    why: 'src/host is shared by the features and must not depend on them',
  }),
  layer(['src/agent/**/*.ts'], {
    folders: ['chat', 'participant', 'codeActions', 'webview'],
    why: 'Features never import each other: what one needs from another is an interface in src/common',
  }),
  layer(['src/chat/**/*.ts'], {
    folders: ['agent', 'participant', 'codeActions', 'webview'],
    why: 'Features never import each other: what one needs from another is an interface in src/common',
  }),
  layer(['src/participant/**/*.ts'], {
    folders: ['agent', 'chat', 'codeActions', 'webview'],
    why: 'Features never import each other: what one needs from another is an interface in src/common',
  }),
  layer(['src/codeActions/**/*.ts'], {
    folders: ['agent', 'chat', 'participant', 'webview'],
    why: 'Features never import each other: what one needs from another is an interface in src/common',
  }),
  // Later entries win for the same rule, so each core repeats its feature's folders as well.
  layer(
    VSCODE_FREE_CORES.filter((f) => f.startsWith('src/agent/')),
    {
      vscode: true,
      node: true,
      folders: ['chat', 'participant', 'codeActions', 'webview'],
      why: 'This is the agent feature’s vscode-free core (tested in Node against the emulator)',
    },
  ),
  layer(
    VSCODE_FREE_CORES.filter((f) => f.startsWith('src/chat/')),
    {
      vscode: true,
      node: true,
      folders: ['agent', 'participant', 'codeActions', 'webview'],
      why: 'This is the chat feature’s vscode-free core (tested in Node and in the browser)',
    },
  ),
  layer(
    VSCODE_FREE_CORES.filter((f) => f.startsWith('src/host/')),
    {
      vscode: true,
      node: true,
      folders: ['agent', 'chat', 'participant', 'codeActions', 'webview'],
      why: 'This is the host layer’s vscode-free wording (tested in Node)',
    },
  ),
  layer(
    VSCODE_FREE_CORES.filter((f) => f.startsWith('src/participant/')),
    { vscode: true, node: true, folders: ['agent', 'chat', 'codeActions', 'webview'], why: 'This is the chat participant’s vscode-free core (tested in Node)' },
  ),
  layer(
    VSCODE_FREE_CORES.filter((f) => f.startsWith('src/codeActions/')),
    { vscode: true, node: true, folders: ['agent', 'chat', 'participant', 'webview'], why: 'This is the code actions’ vscode-free plan (tested in Node)' },
  ),
);
