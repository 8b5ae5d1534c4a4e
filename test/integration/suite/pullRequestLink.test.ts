import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DocsAssistantTestHooks } from '../../../src/extension';
import { activated, configureForEmulator, DEMO, waitFor } from './harness';
import { runSendingReview } from './review';

// Where "Open Pull Request" sends a finished job's pull request (issue 19): the GitHub Pull
// Requests extension's URI handler, or the browser. The real command runs on jobs the emulator
// completed; what it hands to openExternal is caught through the agent's `host` seam (the only
// thing replaced), and whether the extension is installed is faked the same way, since it cannot
// be installed here (no marketplace). `[[pr:github]]` makes the emulator's prLink a github.com
// pull request; without it the link is the emulator's own page.

const PR_EXTENSION = 'GitHub.vscode-pull-request-github';
const SETTING = 'agent.openPullRequestIn';

describe('Open Pull Request: in the GitHub Pull Requests extension or the browser', () => {
  let hooks: DocsAssistantTestHooks;
  let original: DocsAssistantTestHooks['agent']['host'];
  let opened: vscode.Uri[];
  let gitHubJob: { id: string; prLink: string };
  let emulatorJob: { id: string; prLink: string };

  const setting = (value: string | undefined) => vscode.workspace.getConfiguration('docsAssistant').update(SETTING, value, vscode.ConfigurationTarget.Global);
  const fakeInstalled = (installed: boolean) => {
    hooks.agent.host.hasExtension = (id) => (id === PR_EXTENSION ? installed : original.hasExtension(id));
  };
  const openOne = async (jobId: string): Promise<vscode.Uri> => {
    opened = [];
    await vscode.commands.executeCommand('docsAssistant.agent.openPullRequest', jobId);
    assert.equal(opened.length, 1, `openExternal got ${opened.length} URIs: ${opened.map((u) => u.toString(true)).join(', ')}`);
    return opened[0]!;
  };

  async function completedJob(instruction: string): Promise<{ id: string; prLink: string }> {
    const started = await runSendingReview(instruction, undefined, () => hooks.jobs.launch({ draft: instruction, label: instruction }));
    assert.ok(started?.jobId, 'the job was not started');
    const prLink = await waitFor('the job to complete with a pull request', () => hooks.jobs.state(started.jobId)?.prLink, 20_000);
    return { id: started.jobId, prLink };
  }

  /** What the extension's handler reads (URLSearchParams of the decoded query), and the URI as a whole. */
  function assertExtensionUri(uri: vscode.Uri, prLink: string): void {
    assert.equal(uri.scheme, vscode.env.uriScheme);
    assert.equal(uri.authority.toLowerCase(), PR_EXTENSION.toLowerCase());
    assert.equal(uri.path, '/open-pull-request-webview');
    // Decoded once by vscode.Uri.parse, not twice, not left encoded: the handler's URLSearchParams
    // gets back exactly the link (its regex wants `https://github.com/<owner>/<repo>/pull/<n>`).
    assert.equal(uri.query, `uri=${prLink}`);
    assert.deepEqual([...new URLSearchParams(uri.query)], [['uri', prLink]]);
    assert.equal(uri.toString(true), `${vscode.env.uriScheme}://${PR_EXTENSION.toLowerCase()}/open-pull-request-webview?uri=${prLink}`);
    assert.equal(uri.toString(), `${vscode.env.uriScheme}://${PR_EXTENSION.toLowerCase()}/open-pull-request-webview?uri%3D${encodeURIComponent(prLink)}`);
  }

  before(async function () {
    this.timeout(60_000);
    ({ hooks } = await activated());
    if ((await hooks.keys.get('admin')) !== DEMO.adminKey) await hooks.keys.store('admin', DEMO.adminKey);
    await configureForEmulator();
    await waitFor('the jobs of the emulator project to load', () => hooks.agent.current);
    original = { ...hooks.agent.host };
    // One after the other: each review document must be the active editor when Send is pressed.
    gitHubJob = await completedJob(`Document the retry limit on GitHub [[pr:github]] ${Date.now()}`);
    emulatorJob = await completedJob(`Document the retry limit on the emulator ${Date.now()}`);
    assert.match(gitHubJob.prLink, /^https:\/\/github\.com\/acme\/acme-docs\/pull\/\d+$/);
    assert.match(emulatorJob.prLink, /^http:\/\/127\.0\.0\.1:\d+\/pr\/acme\/acme-docs\/pull\/\d+$/);
  });

  beforeEach(() => {
    opened = [];
    hooks.agent.host.openExternal = (uri) => (opened.push(uri), Promise.resolve(true));
  });

  afterEach(async () => {
    Object.assign(hooks.agent.host, original);
    await setting(undefined);
  });

  it('is not installed in this test host: the default check says so, and "auto" opens the browser', async () => {
    assert.equal(vscode.extensions.getExtension(PR_EXTENSION), undefined);
    assert.equal(original.hasExtension(PR_EXTENSION), false);
    assert.equal(vscode.workspace.getConfiguration('docsAssistant').get(SETTING), 'auto');
    assert.equal((await openOne(gitHubJob.id)).toString(true), gitHubJob.prLink);
  });

  it('auto: opens a github.com pull request in the extension when it is installed', async () => {
    fakeInstalled(true);
    assertExtensionUri(await openOne(gitHubJob.id), gitHubJob.prLink);
  });

  it('pullRequestsExtension: the extension when installed; else the browser', async () => {
    await setting('pullRequestsExtension');
    fakeInstalled(true);
    assertExtensionUri(await openOne(gitHubJob.id), gitHubJob.prLink);
    fakeInstalled(false);
    assert.equal((await openOne(gitHubJob.id)).toString(true), gitHubJob.prLink);
    // Again: the browser each time (the notification offering to install it shows once per window;
    // the extension host cannot read notifications, so only what opens is checked here).
    assert.equal((await openOne(gitHubJob.id)).toString(true), gitHubJob.prLink);
  });

  it('browser: always the browser, installed or not', async () => {
    await setting('browser');
    fakeInstalled(true);
    const uri = await openOne(gitHubJob.id);
    assert.equal(uri.scheme, 'https');
    assert.equal(uri.toString(true), gitHubJob.prLink);
  });

  it('a link that is not on github.com always goes to the browser', async () => {
    fakeInstalled(true);
    for (const value of ['auto', 'pullRequestsExtension', 'browser']) {
      await setting(value);
      const uri = await openOne(emulatorJob.id);
      assert.equal(uri.scheme, 'http', value);
      assert.equal(uri.toString(true), emulatorJob.prLink, value);
    }
  });
});
