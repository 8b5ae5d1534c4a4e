import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DocsAssistantTestHooks } from '../../../src/extension';
import type { RunningEmulator } from '../../emulator';
import { git } from '../../fixtures/agentBranchRepo';
import { openWithGit } from './gitExtension';
import { activatedWithEmulator, waitFor } from './harness';
import { CANCEL, received } from './review';

// Check Docs for My Changes (issue 32) in the real VS Code, with the real built-in Git extension
// and real git: a small CLI project committed in a repository inside the workspace, then changed
// (a flag renamed, an option removed, a default changed), checked against the emulator's docs
// (its search endpoint, then a service without it). The Source Control menus' arguments are
// passed as VS Code passes them (a SourceControl's rootUri, a resource state's resourceUri); the
// quick picks are answered by a stub that records what was asked.

const CLI = `import { Command } from 'commander';

export const program = new Command('relay');

program
  .command('queues')
  .command('create <name>')
  .option('--retention <duration>', 'how long messages are kept', '4d')
  .option('--visibility-timeout <duration>', 'how long a received message stays hidden', '30s')
  .option('--dlq <queue>', 'the dead-letter queue');

program
  .command('messages')
  .command('publish <queue>')
  .option('--body <json>', 'the message body')
  .option('--delay <duration>', 'deliver the message later');
`;
const DEFAULTS = 'queue:\n  retention: 4d\n  visibility_timeout: 30s\n';

interface Asked {
  placeHolder: string;
  labels: string[];
}

describe('Check Docs for My Changes (real Git extension, real git, the emulator’s docs)', function () {
  this.timeout(120_000);
  let hooks: DocsAssistantTestHooks;
  let emu: RunningEmulator;
  let repoDir: string;
  let root: vscode.Uri;
  let shown: string[] = [];
  let asked: Asked[] = [];
  const originals = { info: vscode.window.showInformationMessage, pick: vscode.window.showQuickPick };

  const checker = () => hooks.staleDocs;
  const searches = async () => (await received(emu)).filter((r) => r.path.startsWith('/discovery/v1/search/'));

  before(async () => {
    ({ hooks, emu } = await activatedWithEmulator());
    (vscode.window as { showInformationMessage: unknown }).showInformationMessage = async (message: string) => {
      shown.push(message);
      return undefined;
    };
    // The repository pick takes our repository; the scope pick its default (the first).
    (vscode.window as { showQuickPick: unknown }).showQuickPick = async (
      items: readonly (vscode.QuickPickItem & { repository?: { rootUri: vscode.Uri } })[],
      opts?: vscode.QuickPickOptions,
    ) => {
      const list = await items;
      asked.push({ placeHolder: opts?.placeHolder ?? '', labels: list.map((i) => i.label) });
      return list.find((i) => i.repository?.rootUri.toString() === root?.toString()) ?? list[0];
    };
  });

  after(async () => {
    (vscode.window as { showInformationMessage: unknown }).showInformationMessage = originals.info;
    (vscode.window as { showQuickPick: unknown }).showQuickPick = originals.pick;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (repoDir) rmSync(repoDir, { recursive: true, force: true });
  });

  beforeEach(() => {
    shown = [];
    asked = [];
  });

  it('with Git turned off (as in the browser), says so plainly and reads nothing', async () => {
    // The suite's settings turn Git off (test/integration/run.mjs); an earlier suite may have reset it.
    await vscode.workspace.getConfiguration('git').update('enabled', false, vscode.ConfigurationTarget.Global);
    // Once an earlier suite turned Git on, the Git extension stays enabled (with no repository)
    // until the window reloads: then the check says there is no repository instead.
    const stillOn = vscode.extensions.getExtension<{ enabled: boolean }>('vscode.git')?.exports?.enabled === true;
    await vscode.commands.executeCommand('docsAssistant.checkDocsForChanges');
    assert.equal(checker().state, stillOn ? 'noRepository' : 'noGit');
    assert.equal(shown.length, 1, JSON.stringify(shown));
    assert.match(shown[0]!, stillOn ? /No Git repository is open in this workspace/ : /Git is not available here/);
    assert.deepEqual(asked, [], 'nothing was asked');
  });

  describe('with Git enabled', () => {
    before(async function () {
      this.timeout(60_000);
      repoDir = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, `stale-docs-${Date.now()}`);
      mkdirSync(join(repoDir, 'src'), { recursive: true });
      writeFileSync(join(repoDir, 'src', 'cli.ts'), CLI);
      writeFileSync(join(repoDir, 'relay.defaults.yaml'), DEFAULTS);
      git(repoDir, 'init', '-q', '-b', 'main');
      git(repoDir, 'add', '.');
      git(repoDir, '-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '-q', '-m', 'relay CLI');
      // The change: a flag renamed and an option removed (unstaged), a default changed (staged).
      writeFileSync(
        join(repoDir, 'src', 'cli.ts'),
        CLI.replace("'--dlq <queue>'", "'--dead-letter-queue <queue>'").replace(/\n {2}\.option\('--delay[^\n]*/, ';'),
      );
      writeFileSync(join(repoDir, 'relay.defaults.yaml'), DEFAULTS.replace('30s', '60s'));
      git(repoDir, 'add', 'relay.defaults.yaml');
      const repo = await openWithGit(repoDir);
      await waitFor('the repository’s HEAD', () => repo.state.HEAD, 20_000);
      // The Source Control menus hand over the Git extension's own URIs (its real path, which a
      // workspace under a symbolic link does not share): the repository's root is taken from it.
      root = repo.rootUri;
    });

    after(async () => {
      await vscode.workspace.getConfiguration('git').update('enabled', false, vscode.ConfigurationTarget.Global);
    });

    it('from the Source Control title (its repository): asks staged-and-unstaged or branch, finds the CLI page with its lines, via search', async () => {
      const before = (await searches()).length;
      await vscode.commands.executeCommand('docsAssistant.checkDocsForChanges', { rootUri: root, id: 'git', label: 'Git' });
      assert.deepEqual(
        asked.map((a) => a.labels),
        [['Staged and unstaged changes', 'This branch against its upstream / merge base']],
        'the repository came from the menu; only the scope was asked',
      );
      assert.equal(checker().state, 'ready', JSON.stringify(shown));
      const result = checker().result!;
      const forms = result.check.items.map((i) => i.oldForm);
      assert.ok(forms.includes('--dlq'), JSON.stringify(forms));
      assert.ok(
        forms.some((f) => f.includes('--delay')),
        'the removed option, from the unstaged patch',
      );
      assert.ok(
        forms.some((f) => f.includes('visibility_timeout')),
        'the default, from the staged patch',
      );
      const cli = result.check.pages.find((p) => p.path === '/cli');
      assert.ok(cli, JSON.stringify(result.check.pages.map((p) => p.path)));
      assert.ok(
        cli.lines.some((l) => l.text.includes('`--dlq`')),
        JSON.stringify(cli.lines),
      );
      assert.equal(result.check.via, 'search');
      const made = (await searches()).slice(before);
      assert.equal(made.length, result.check.requests);
      assert.ok(made.length >= 1 && made.length <= 50, String(made.length));
      assert.ok(
        made.every((r) => r.auth === 'assistant'),
        'the search carries the assistant key, never the admin key',
      );
    });

    it('from a changed file’s menu: only that file’s change, nothing asked', async () => {
      await vscode.commands.executeCommand('docsAssistant.checkDocsForChanges', { resourceUri: vscode.Uri.joinPath(root, 'relay.defaults.yaml') });
      assert.deepEqual(asked, []);
      const items = checker().result?.check.items ?? [];
      assert.ok(items.length >= 1, checker().state);
      assert.ok(
        items.every((i) => (i.old ?? i.new)!.file === 'relay.defaults.yaml'),
        JSON.stringify(items.map((i) => i.old ?? i.new)),
      );
    });

    it('an argument that is no repository the Git extension knows is not used: it asks, and checks the repository picked', async () => {
      await vscode.commands.executeCommand('docsAssistant.checkDocsForChanges', { resourceUri: vscode.Uri.file('/etc/passwd') });
      assert.ok(asked.length >= 1, 'the scope (and, with several repositories, the repository) was asked');
      const files = new Set((checker().result?.check.items ?? []).map((i) => (i.old ?? i.new)!.file));
      assert.ok(files.has('src/cli.ts') && files.has('relay.defaults.yaml'), JSON.stringify([...files]));
    });

    it('Fix with Agent… on every page opens the review with the changes and the pages', async () => {
      const pages = checker().result!.check.pages.map((p) => p.path);
      void vscode.commands.executeCommand('docsAssistant.staleDocs.fixWithAgent');
      const editor = await waitFor('the review document', () => {
        const e = vscode.window.activeTextEditor;
        return e && e.document.uri.scheme === 'untitled' && e.document.getText().includes('--dlq') ? e : undefined;
      });
      const text = editor.document.getText();
      for (const p of pages) assert.ok(text.includes(p), `${p} is in the draft`);
      assert.match(text, /--dead-letter-queue/);
      await vscode.commands.executeCommand(CANCEL);
    });

    it('a service without the search endpoint (404): the assistant’s sources, on the docs site’s address, are its pages', async () => {
      // The emulator serves its pages under /docs/ (`${emu.url}/docs/cli`); the check is told so, as a user would.
      const docsSiteUrl = (value: string | undefined) =>
        vscode.workspace.getConfiguration('docsAssistant').update('docsSiteUrl', value, vscode.ConfigurationTarget.Global);
      emu.search.offer(false);
      await docsSiteUrl(`${emu.url}/docs`);
      try {
        await vscode.commands.executeCommand('docsAssistant.checkDocsForChanges', { rootUri: root });
        assert.equal(checker().result?.check.via, 'assistant', checker().state);
        assert.equal(checker().state, 'ready');
        const pages = checker().result!.check.pages.map((p) => p.path);
        assert.ok(pages.includes('/cli'), JSON.stringify(pages));
      } finally {
        emu.search.offer(true);
        await docsSiteUrl(undefined);
      }
    });
  });
});
