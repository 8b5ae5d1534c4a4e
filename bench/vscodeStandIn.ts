import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';
import { ROOT } from './shadow';

// A stand-in for the \`vscode\` module, for the benchmarks that load the production bundle in
// Node and run activate() (footprint.ts, jobs.ts): every call succeeds and returns a disposable,
// and what a benchmark needs to reach (the tree a view was given) is kept.

/** Just enough of the vscode API for activate(): every call succeeds and returns a disposable. */
export interface StandInOptions {
  /** docsAssistant.* settings (a user's, for the user-only ones). */
  settings?: Record<string, unknown>;
  /** Filled with each tree view's data provider, by view id. */
  trees?: Map<string, unknown>;
}

export function vscodeStandIn(opts: StandInOptions = {}): Record<string, unknown> {
  const disposable = () => ({ dispose() {} });
  const event = () => disposable();
  class EventEmitter {
    event = event;
    fire() {}
    dispose() {}
  }
  class Disposable {
    static from = () => disposable();
    constructor(private readonly fn?: () => void) {}
    dispose() {
      this.fn?.();
    }
  }
  const anything: ProxyHandler<object> = {
    get: (_t, p) =>
      p === 'then' ? undefined : p === 'dispose' ? () => {} : p === 'event' || String(p).startsWith('onDid') ? event : new Proxy(() => {}, anything),
    apply: () => new Proxy(() => {}, anything),
    construct: () => new Proxy({}, anything),
    set: () => true,
    defineProperty: () => true,
  };
  const loose = <T extends object>(o: T): T =>
    new Proxy(o, { get: (t, p) => (p in t ? (t as Record<PropertyKey, unknown>)[p] : new Proxy(() => {}, anything)) });
  const settings = opts.settings ?? {};
  const configuration = {
    get: (k: string, d?: unknown) => (k in settings ? settings[k] : d),
    has: (k: string) => k in settings,
    inspect: (k: string) => (k in settings ? { key: k, globalValue: settings[k] } : undefined),
    update: async () => undefined,
  };
  // What a tree's items are made of, kept as given, so a benchmark can read them back.
  class TreeItem {
    constructor(
      public label: unknown,
      public collapsibleState = 0,
    ) {}
  }
  class Plain {
    constructor(...args: unknown[]) {
      Object.assign(this, { args });
    }
  }
  return loose({
    EventEmitter,
    TreeItem,
    ThemeIcon: Plain,
    ThemeColor: Plain,
    MarkdownString: Plain,
    Disposable,
    ExtensionMode: { Production: 1, Development: 2, Test: 3 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    ViewColumn: { Active: -1, Beside: -2, One: 1 },
    // The code actions' kinds are read when their provider's class is defined.
    CodeActionKind: { QuickFix: { append: () => ({}) }, Empty: {} },
    commands: loose({ registerCommand: disposable, executeCommand: async () => undefined }),
    workspace: loose({ getConfiguration: () => configuration, onDidChangeConfiguration: event, workspaceFolders: [] }),
    window: loose({
      state: { focused: true },
      activeTextEditor: undefined,
      createOutputChannel: () => new Proxy({}, anything),
      createTreeView: (id: string, o: { treeDataProvider: unknown }) => {
        opts.trees?.set(id, o.treeDataProvider);
        return new Proxy({}, anything);
      },
      onDidChangeWindowState: event,
      onDidChangeActiveTextEditor: event,
    }),
    env: loose({ machineId: 'bench', language: 'en', clipboard: { writeText: async () => undefined } }),
    // esbuild's ESM interop copies the module's own properties, so everything activate() reaches
    // must be named here; the proxy's fallback only covers what hangs below these.
    version: '1.100.3',
    l10n: { t: (message: string) => message, bundle: undefined },
    Uri: loose({ joinPath: () => ({}), parse: () => ({}) }),
    chat: loose({ createChatParticipant: () => new Proxy({}, anything) }),
    lm: loose({ registerTool: disposable, tools: [] }),
    languages: loose({ registerCodeActionsProvider: disposable }),
  });
}

/** An extension context; `globalState` seeds its global memento. */
export function fakeContext(globalState: Record<string, unknown> = {}): Record<string, unknown> {
  const memento = (seed: Record<string, unknown> = {}) => {
    const m = new Map<string, unknown>(Object.entries(seed));
    return { get: (k: string, d?: unknown) => (m.has(k) ? m.get(k) : d), update: async (k: string, v: unknown) => void m.set(k, v), keys: () => [...m.keys()] };
  };
  return {
    subscriptions: [] as { dispose(): void }[],
    secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined, onDidChange: () => ({ dispose() {} }) },
    globalState: { ...memento(globalState), setKeysForSync() {} },
    workspaceState: memento(),
    extensionUri: { fsPath: ROOT, path: ROOT, scheme: 'file', toString: () => `file://${ROOT}` },
    extensionPath: ROOT,
    extensionMode: 1,
    extension: { packageJSON: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) },
  };
}

/** Makes \`require('vscode')\` return \`stand\` until the returned function is called. */
export function installStandIn(stand: Record<string, unknown>): () => void {
  const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })._resolveFilename;
  const mod = Module as unknown as { _resolveFilename: typeof resolve };
  mod._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? 'vscode-bench-stand-in' : resolve.call(this, request, ...rest);
  };
  require.cache['vscode-bench-stand-in'] = { id: 'vscode', filename: 'vscode', loaded: true, exports: stand } as unknown as NodeJS.Module;
  return () => {
    mod._resolveFilename = resolve;
  };
}
