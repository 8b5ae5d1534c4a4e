import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';

// Each rule of the project is fed a deliberate violation and must bite; each control must pass,
// so a rule that bit everything would fail too. The checks themselves run in `npm run lint`.

const ROOT = join(__dirname, '..', '..');

describe('the project’s rules bite', function () {
  this.timeout(60_000);
  const eslint = new ESLint({ cwd: ROOT });

  /** ESLint messages for `code` as if it lived at `file` (nothing is written to disk). */
  async function lint(file: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
    return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
  }

  const violations: [file: string, code: string, expected: RegExp][] = [
    [
      'src/api/bite.ts',
      "import * as vscode from 'vscode';\nexport const v = vscode;\n",
      /no-restricted-imports: .*src\/api is the plain service client.*must not import vscode/,
    ],
    ['src/api/bite.ts', "import { ChatSession } from '../chat/core/chatSession';\nexport const c = ChatSession;\n", /src\/api is the plain service client/],
    [
      'src/common/bite.ts',
      "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
      /src\/common is shared with the webview.*Node built-in/,
    ],
    ['src/common/bite.ts', "import { readFileSync } from 'fs';\nexport const r = readFileSync;\n", /Node built-in/],
    [
      'src/webview/bite.ts',
      "import { AssistantClient } from '../api/assistantClient';\nexport const a = AssistantClient;\n",
      /src\/webview is a browser bundle/,
    ],
    ['src/webview/bite.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n", /must not import vscode/],
    ['src/chat/vscode/bite.ts', "import { AgentFeature } from '../../agent/vscode';\nexport const a = AgentFeature;\n", /Features never import each other/],
    [
      'src/agent/vscode/bite.ts',
      "import { ChatController } from '../../chat/vscode/chatController';\nexport const c = ChatController;\n",
      /Features never import each other/,
    ],
    [
      'src/host/vscode/bite.ts',
      "import { registerChatFeature } from '../../chat/vscode';\nexport const r = registerChatFeature;\n",
      /src\/host serves the features/,
    ],
    // src/assistant is the second shared area: the features ask through it, host comes before it.
    [
      'src/host/core/bite.ts',
      "import { SetupState } from '../../assistant/core/setupState';\nexport const s = SetupState;\n",
      /src\/host serves the features and must not depend on them, nor on what comes after it/,
    ],
    [
      'src/assistant/core/bite.ts',
      "import { ChatStore } from '../../chat/core/chatStore';\nexport const c = ChatStore;\n",
      /src\/assistant serves the features and must not depend on them/,
    ],
    ['src/assistant/core/assistant.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n", /A core\/ folder is vscode-free/],
    // The service client is used through its index, in every layer that may use it.
    [
      'src/chat/core/bite.ts',
      "import { isLoopbackUrl } from '../../api/url';\nexport const l = isLoopbackUrl;\n",
      /Import the service client from src\/api itself/,
    ],
    [
      'src/agent/vscode/bite.ts',
      "import type { AgentJob } from '../../api/types';\nexport type J = AgentJob;\n",
      /Import the service client from src\/api itself/,
    ],
    // Issue 28: a layer is read from the path. A new file in a core/ folder is vscode-free by being there.
    ['src/chat/core/bite.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n", /A core\/ folder is vscode-free.*must not import vscode/],
    ['src/agent/core/bite.ts', "import type * as vscode from 'vscode';\nexport type V = typeof vscode;\n", /A core\/ folder is vscode-free/],
    ['src/participant/core/answerRelay.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n", /A core\/ folder is vscode-free/],
    [
      'src/host/core/errorWords.ts',
      "import * as vscode from 'vscode';\nexport const t = vscode.l10n.t;\n",
      /A core\/ folder is vscode-free.*must not import vscode/,
    ],
    // ...nor may it reach vscode through its own wiring, even by a type.
    [
      'src/chat/core/bite.ts',
      "import type { Log } from '../../host/vscode/log';\nexport type L = Log;\n",
      /vscode-free core: it may not import VS Code wiring \(src\/host\/vscode\)/,
    ],
    [
      'src/chat/core/bite.ts',
      "import { ChatController } from '../vscode/chatController';\nexport const c = ChatController;\n",
      /vscode-free core: it may not import VS Code wiring/,
    ],
    // The path is resolved, so another spelling of it does not get around the fence.
    [
      'src/chat/core/bite.ts',
      "import { JobStore } from '../core/../../agent/core/jobStore';\nexport const j = JobStore;\n",
      /Features never import each other/,
    ],
    // A file outside every layer (a feature's top level, a new folder's) is refused for where it is.
    ['src/chat/bite.ts', 'export const x = 1;\n', /no-restricted-syntax: This file is outside every layer/],
    ['src/newFeature/bite.ts', 'export const x = 1;\n', /This file is outside every layer/],
    ['src/chat/core/chatStore.ts', "import { JobStore } from '../../agent/core/jobStore';\nexport const j = JobStore;\n", /Features never import each other/],
    [
      'src/participant/vscode/bite.ts',
      "import { ChatSession } from '../../chat/core/chatSession';\nexport const c = ChatSession;\n",
      /Features never import each other/,
    ],
    [
      'src/chat/vscode/bite.ts',
      "import { DocsParticipant } from '../../participant/vscode/participant';\nexport const p = DocsParticipant;\n",
      /Features never import each other/,
    ],
    ['src/chat/core/chatSession.ts', "import { createHash } from 'node:crypto';\nexport const h = createHash;\n", /Node built-in/],
    ['src/chat/vscode/bite.ts', `${'export const x = 1;\n'.repeat(301)}`, /max-lines: File has too many lines \(301\)/],
    ['src/chat/vscode/bite.ts', "console.log('a key?');\n", /no-console/],
    // Issue 20: everything but the Node entry runs in the browser extension host too.
    [
      'src/assistant/vscode/assistantService.ts',
      "import { createHash } from 'node:crypto';\nexport const h = createHash;\n",
      /browser extension host.*Node built-in/,
    ],
    ['src/api/bite.ts', "import { join } from 'path';\nexport const j = join;\n", /browser extension host.*Node built-in/],
    ['src/web/extension.ts', "import { readFileSync } from 'fs';\nexport const r = readFileSync;\n", /browser extension host.*Node built-in/],
    ['src/activation.ts', 'export const env = process.env;\n', /no-restricted-globals: .*browser extension host.*no `process` there/],
    ['src/chat/core/postPacer.ts', 'setImmediate(() => undefined);\n', /no-restricted-globals: .*no `setImmediate` there/],
    ['src/agent/vscode/bite.ts', "export const b = Buffer.from('x');\n", /no-restricted-globals: .*no `Buffer` there/],
    // Issue 28: one way to fire an event, Emitter (src/common/event.ts), which reports what a listener throws.
    [
      'src/agent/vscode/bite.ts',
      "import * as vscode from 'vscode';\nexport const changed = new vscode.EventEmitter<void>();\n",
      /no-restricted-properties: .*Emitter \(src\/common\/event\.ts\)/,
    ],
    ['src/agent/core/bite.ts', 'export class Store {\n  private readonly listeners = new Set<() => void>();\n}\n', /events\/no-hand-made: .*listener set/],
    ['src/host/core/bite.ts', 'type Listener = (k: string) => void;\nexport class Keys {\n  _handlers: Listener[] = [];\n}\n', /events\/no-hand-made/],
    ['src/chat/core/bite.ts', 'export const waiting = new Map<string, () => void>();\n', /events\/no-hand-made/],
    ['src/chat/core/bite.ts', 'export interface Deps {\n  onPatch(turnId: string): void;\n}\n', /events\/no-hand-made: A callback named like an event/],
    ['src/agent/core/bite.ts', 'export interface Deps {\n  onDone?: (id: string) => void;\n}\n', /events\/no-hand-made: A callback named like an event/],
  ];

  for (const [file, code, expected] of violations) {
    it(`${file}: ${code.split('\n')[0]!.slice(0, 60)}… is refused`, async () => {
      const messages = await lint(file, code);
      assert.ok(
        messages.some((m) => expected.test(m)),
        `expected ${expected} among ${JSON.stringify(messages)}`,
      );
    });
  }

  it('lets each layer import what it may (controls)', async () => {
    const allowed: [string, string][] = [
      ['src/chat/vscode/chatController.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n"],
      ['src/agent/vscode/index.ts', "import * as vscode from 'vscode';\nimport { AgentClient } from '../../api';\nexport const v = [vscode, AgentClient];\n"],
      [
        'src/agent/vscode/bite.ts',
        "import { JobStore } from '../core/jobStore';\nimport { readConfig } from '../../host/vscode/config';\nexport const j = [JobStore, readConfig];\n",
      ],
      [
        'src/chat/core/bite.ts',
        "import { describeForUser } from '../../host/core/errorWords';\nimport { english } from '../../common/l10n';\nexport const d = [describeForUser, english];\n",
      ],
      ['src/webview/bite.ts', "import type { ChatSnapshot } from '../common/protocol';\nexport type S = ChatSnapshot;\n"],
      ['src/chat/core/imagePolicy.ts', "import { isLoopbackUrl } from '../../api';\nexport const l = isLoopbackUrl;\n"],
      ['src/api/bite.ts', "import { ServiceError } from './errors';\nexport const e = ServiceError;\n"],
      // The Node entry is the one place for Node: the demo keys come from its environment.
      ['src/extension.ts', "import { join } from 'node:path';\nexport const env = [process.env, join];\n"],
      ['src/chat/core/postPacer.ts', "export const soon = typeof globalThis.setImmediate === 'function';\n"],
      [
        'src/agent/core/bite.ts',
        "import { Emitter, type Event } from '../../common/event';\nconst changed = new Emitter<void>();\nexport interface Jobs {\n  readonly onDidChange: Event<void>;\n}\nexport const jobs: Jobs = { onDidChange: changed.event };\n",
      ],
      [
        'src/assistant/vscode/bite.ts',
        "import * as vscode from 'vscode';\nimport { readConfig } from '../../host/vscode/config';\nimport { SetupState } from '../core/setupState';\nexport const a = [vscode, readConfig, SetupState];\n",
      ],
      ['src/participant/core/bite.ts', "import { ThreadStore } from '../../assistant/core/threads';\nexport const t = ThreadStore;\n"],
    ];
    for (const [file, code] of allowed) assert.deepEqual(await lint(file, code), [], `${file} may import this`);
  });

  it('fences in a new feature as soon as its folder exists, and refuses an import cycle, type-only or not', function () {
    this.timeout(120_000);
    const dir = mkdtempSync(join(tmpdir(), 'layers-'));
    try {
      for (const f of ['src', 'eslint.config.mjs', 'tsconfig.json']) cpSync(join(ROOT, f), join(dir, f), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
      // A feature nobody listed anywhere: its wiring imports the chat's.
      mkdirSync(join(dir, 'src/glossary/vscode'), { recursive: true });
      writeFileSync(
        join(dir, 'src/glossary/vscode/index.ts'),
        "import { ChatController } from '../../chat/vscode/chatController';\nexport const c = ChatController;\n",
      );
      const lint = spawnSync(process.execPath, [join(ROOT, 'node_modules/eslint/bin/eslint.js'), '--no-warn-ignored', 'src/glossary/vscode/index.ts'], {
        cwd: dir,
        encoding: 'utf8',
      });
      assert.notEqual(lint.status, 0, lint.stderr);
      assert.match(lint.stdout, /Features never import each other/);

      const cycles = () => spawnSync(process.execPath, [join(ROOT, 'scripts/check-cycles.mjs'), dir], { encoding: 'utf8' });
      const clean = cycles();
      assert.equal(clean.status, 0, clean.stderr);
      // Two files that import each other's types only: the shape of the two cycles issue 28 found.
      writeFileSync(join(dir, 'src/chat/core/biteA.ts'), "import type { B } from './biteB';\nexport interface A { b?: B }\n");
      writeFileSync(join(dir, 'src/chat/core/biteB.ts'), "import type { A } from './biteA';\nexport interface B { a?: A }\n");
      const typeOnly = cycles();
      assert.equal(typeOnly.status, 1);
      assert.match(typeOnly.stderr, /an import cycle through 2 files[^\n]*\n {2}src\/chat\/core\/biteA\.ts\n {2}src\/chat\/core\/biteB\.ts/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the formatter finds a file that is not formatted, and passes one that is', async () => {
    const options = { ...(await prettier.resolveConfig(join(ROOT, 'src/x.ts'))), filepath: join(ROOT, 'src/x.ts') };
    assert.equal(await prettier.check('const a  =  {b:1}\n', options), false);
    assert.equal(await prettier.check('const a = { b: 1 };\n', options), true);
  });

  describe('check-commands', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'check-commands-'));
      cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
      cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const run = () => spawnSync(process.execPath, [join(ROOT, 'scripts/check-commands.mjs'), dir], { encoding: 'utf8' });

    it('passes the project as it is', () => {
      const r = run();
      assert.equal(r.status, 0, r.stderr);
    });

    it('fails when the real registration of a command is removed, though its id still appears in the file', () => {
      const file = join(dir, 'src/agent/vscode/configure.ts');
      const text = readFileSync(file, 'utf8');
      assert.ok(text.includes("registerCommand('docsAssistant.configure'"), 'the fixture still registers it');
      writeFileSync(
        file,
        text.replace("vscode.commands.registerCommand('docsAssistant.configure',", "void vscode.commands.executeCommand('docsAssistant.configure'); ("),
      );
      const r = run();
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, /declared but never registered: docsAssistant\.configure/);
    });

    it('fails when a menu names a command that is not declared', () => {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      pkg.contributes.menus['view/title'].push({ command: 'docsAssistant.nope', when: 'true' });
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
      const r = run();
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, /not declared in contributes\.commands: docsAssistant\.nope/);
    });
  });

  it('check-l10n: finds words that bypass l10n (a source literal, a package.json title, a stale bundle), and passes the project', function () {
    this.timeout(120_000);
    const dir = mkdtempSync(join(tmpdir(), 'check-l10n-'));
    try {
      for (const f of ['src', 'l10n', 'package.json', 'package.nls.json', 'tsconfig.json']) cpSync(join(ROOT, f), join(dir, f), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
      const run = () => spawnSync(process.execPath, [join(ROOT, 'scripts/check-l10n.mjs'), dir], { encoding: 'utf8' });
      const clean = run();
      assert.equal(clean.status, 0, clean.stderr);

      // A message, a button and an input box's title, as literals; and a command title in English.
      writeFileSync(
        join(dir, 'src/agent/bite.ts'),
        "import * as vscode from 'vscode';\nexport async function bite(): Promise<void> {\n  await vscode.window.showWarningMessage(`Docs Assistant: ${1} job failed.`, 'Show Job');\n  await vscode.window.showInputBox({ title: 'Docs Assistant: Bite' });\n  await vscode.window.showInformationMessage(vscode.l10n.t('Translated {0}', 1));\n}\n",
      );
      // The chat page: an element's text and attributes, set directly or through its builders (dom.ts).
      writeFileSync(
        join(dir, 'src/webview/bite.ts'),
        "import * as l10n from '@vscode/l10n';\nimport { h, iconButton } from './dom';\nexport function bite(el: HTMLElement): HTMLElement {\n  el.textContent = 'Jump to latest';\n  el.setAttribute('aria-label', `Remove ${el.id}`);\n  el.append(iconButton('copy', 'Copy code', 'copyCode'));\n  return h('button', { title: 'Send (Enter)', class: 'send button' }, l10n.t('Send'), 'Stop');\n}\n",
      );
      // A vscode-free core of the chat: what the page shows, through the protocol.
      writeFileSync(
        join(dir, 'src/chat/bite.ts'),
        "import type { ErrorView } from '../common/protocol';\nexport const bite = (): ErrorView => ({ message: 'The service could not answer.', kind: 'server', actions: ['retry'] });\n",
      );
      // A feature folder nobody listed yet: checked from its first file.
      mkdirSync(join(dir, 'src/brandNew/vscode'), { recursive: true });
      writeFileSync(
        join(dir, 'src/brandNew/vscode/bite.ts'),
        "import * as vscode from 'vscode';\nexport const bite = (): Thenable<unknown> => vscode.window.showInformationMessage('Nothing to check.');\n",
      );
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      pkg.contributes.commands[0].title = 'Set Admin API Key…';
      writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
      const r = run();
      assert.notEqual(r.status, 0);
      assert.match(
        r.stderr,
        /src\/agent\/bite\.ts:3:\d+: "Docs Assistant: … job failed\." goes to vscode\.window\.showWarningMessage\(message\) without vscode\.l10n\.t/,
      );
      assert.match(r.stderr, /src\/agent\/bite\.ts:3:\d+: "Show Job" goes to vscode\.window\.showWarningMessage\(items\)/);
      assert.match(r.stderr, /src\/agent\/bite\.ts:4:\d+: "Docs Assistant: Bite" goes to the title property/);
      assert.doesNotMatch(r.stderr, /agent\/bite\.ts:5:/, 'a message through vscode.l10n.t is fine');
      assert.match(r.stderr, /src\/webview\/bite\.ts:4:\d+: "Jump to latest" goes to el\.textContent without l10n\.t/);
      assert.match(r.stderr, /src\/webview\/bite\.ts:5:\d+: "Remove …" goes to el\.setAttribute\(aria-label\)/);
      assert.match(r.stderr, /src\/webview\/bite\.ts:6:\d+: "Copy code" goes to iconButton\(label\)/);
      assert.match(r.stderr, /src\/webview\/bite\.ts:7:\d+: "Send \(Enter\)" goes to h\(attrs\) \(title\)/);
      assert.match(r.stderr, /src\/webview\/bite\.ts:7:\d+: "Stop" goes to h\(children\)/);
      assert.doesNotMatch(r.stderr, /"Send"|"send button"/, 'a word through l10n.t, and a class, are fine');
      assert.match(r.stderr, /src\/chat\/bite\.ts:2:\d+: "The service could not answer\." goes to the message property without l10n\.t/);
      assert.match(r.stderr, /src\/brandNew\/vscode\/bite\.ts:2:\d+: "Nothing to check\." goes to vscode\.window\.showInformationMessage\(message\)/);
      assert.match(r.stderr, /package\.json docsAssistant\.setAdminKey\.title: "Set Admin API Key…" is not a %key% placeholder/);
      assert.match(r.stderr, /package\.nls\.json: "command\.setAdminKey\.title" is used nowhere in package\.json/);
      assert.match(r.stderr, /l10n\/bundle\.l10n\.json is stale: run `npm run l10n` and commit it \(1 new, 0 gone\)\n {2}new: Translated \{0\}/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
