import type { Frame } from 'playwright-core';
import { chatViewStackOptions, chatViewUnsupported } from './chatView';
import { printExtensionLogIfFailed } from './extensionLog';
import { startStack, type Stack, type StackOptions } from './stack';
import { Workbench, closeAll } from './workbench';

// What every e2e suite stands on, started in its before() and closed in its after(): the
// emulator and code-server with the packaged extension (stack.ts), a workbench open on it
// (workbench.ts) and, where the suite asks, the Ask Docs chat. What is a suite's own goes in a
// before() of its own, written after withStack(): mocha runs hooks in the order they are given.
//
//   const e2e = withStack({ stack: { demoKeys: true }, openChat: true });
//   it('…', async () => { await e2e.wb.ask(e2e.chat, 'How do I…?'); });

/** A server of the suite's own, started before its stack and closed after it: a decoy service, a beacon. */
interface Closable {
  close(): Promise<unknown>;
}

export interface StackFixtureOptions<Server extends Closable | undefined> {
  /** The stack's options; a function of the suite's `server` where they name it, or where they are built only when the suite runs. */
  stack?: StackOptions | ((server: Server) => StackOptions);
  /** Opens the Ask Docs chat once the workbench is up, as `chat`. */
  openChat?: boolean;
  /**
   * A stack for VS Code's own Chat view (chatView.ts). 'required': where this code-server has no
   * Chat view, nothing starts and each test skips with `unsupported`. 'where-supported': a plain
   * stack starts there instead, and only the tests that need the Chat view skip.
   */
  chatView?: 'required' | 'where-supported';
  /** Starts the suite's own server, first; it is closed last. */
  server?: () => Promise<Server>;
}

interface Parts<Server> {
  stack: Stack;
  wb: Workbench;
  chat: Frame;
  server: Server;
}

/** What a suite's tests use; each part is there from the suite's before() to its after(). */
export class StackFixture<Server extends Closable | undefined> {
  /** Why this code-server cannot run the Chat view's tests (with `chatView`), or undefined where it can. */
  unsupported: string | undefined;
  private started: Partial<Parts<Server>> = {};

  get stack(): Stack {
    return this.part('stack');
  }
  get wb(): Workbench {
    return this.part('wb');
  }
  /** The Ask Docs chat's frame; a test that reloads the workbench sets the new one. */
  get chat(): Frame {
    return this.part('chat');
  }
  set chat(frame: Frame) {
    this.started.chat = frame;
  }
  get server(): Server {
    return this.part('server');
  }

  async start(opts: StackFixtureOptions<Server>): Promise<void> {
    const server = (await opts.server?.()) as Server;
    this.started.server = server;
    if (opts.chatView) this.unsupported = await chatViewUnsupported();
    if (opts.chatView === 'required' && this.unsupported) return;
    const given = typeof opts.stack === 'function' ? opts.stack(server) : (opts.stack ?? {});
    this.started.stack = await startStack(opts.chatView && !this.unsupported ? chatViewStackOptions(given) : given);
    this.started.wb = await Workbench.open(this.started.stack);
    if (opts.openChat) this.started.chat = await this.started.wb.openChat();
  }

  /** The stack's user-data folder, once it started. */
  userDataDir(): string | undefined {
    return this.started.stack?.userDataDir;
  }

  async close(): Promise<void> {
    await closeAll(this.started.wb, this.started.stack);
    await this.started.server?.close();
  }

  private part<K extends keyof Parts<Server>>(name: K): Parts<Server>[K] {
    const value = this.started[name];
    if (value === undefined) {
      const why = this.unsupported ? `the Chat view cannot run here: ${this.unsupported}` : `the suite's before() failed or has not run`;
      throw new Error(`withStack: no ${name} (${why}).`);
    }
    return value as Parts<Server>[K];
  }
}

/** Registers the suite's before() and after() for its stack; read the parts inside tests and hooks. */
export function withStack<Server extends Closable | undefined = undefined>(opts: StackFixtureOptions<Server> = {}): StackFixture<Server> {
  const fixture = new StackFixture<Server>();
  before(() => fixture.start(opts));
  // A failed test's story, from the extension's side: without it, a failure seen once in CI
  // leaves only the test's own message to go on.
  afterEach(function () {
    const dir = fixture.userDataDir();
    if (dir) printExtensionLogIfFailed(this.currentTest, dir);
  });
  after(() => fixture.close());
  return fixture;
}
