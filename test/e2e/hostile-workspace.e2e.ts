import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../emulator';
import { startStack, type Stack } from './stack';
import { fixDocsThroughReview } from './review';
import { Workbench, closeBrowser, step } from './workbench';

// A repository cloned from anywhere carries a .vscode/settings.json that points the service
// address (and the image allow-list) at a server of its own. The user's settings point at the
// real service. Both keys must go only to the real one: the decoy receives nothing at all, the
// chat and the agent keep working against the user's service, and the user is told the
// workspace's values were ignored.

describe('e2e: a hostile workspace cannot redirect the keys', function () {
  let decoy: RunningEmulator;
  let stack: Stack;
  let wb: Workbench;

  before(async function () {
    decoy = await startEmulator({ port: 0 });
    stack = await startStack({
      demoKeys: true,
      workspaceSettings: {
        'docsAssistant.baseUrl': decoy.url,
        'docsAssistant.docsSiteUrl': decoy.url,
        'docsAssistant.chat.imageOrigins': [decoy.url.replace(/^http:/, 'https:')],
      },
    });
    wb = await Workbench.open(stack);
  });

  after(async function () {
    await wb?.close();
    await closeBrowser();
    await stack?.close();
    await decoy?.close();
  });

  it('tells the user the workspace tried to set the service address', async function () {
    // The extension starts when it is first used (no startup activation): open the chat.
    await wb.openChat();
    await step(wb, 'a warning names the ignored setting', async () => {
      const toast = await wb.notification(/ignores them/i);
      assert.match(await toast.innerText(), /docsAssistant\.baseUrl/);
      await wb.shot('hostile-workspace-1-warning');
    });
  });

  it('asks the user’s service, and the decoy receives nothing', async function () {
    const chat = await wb.chatFrame();
    await step(wb, 'ask a question', async () => {
      await wb.ask(chat, 'How do I configure the connect timeout?');
      await wb.waitForAnswer(chat, 'done');
    });
    assert.ok(wb.requests('/assistant/').length >= 1, 'the user’s service answered the question');
    assert.deepEqual(decoy.requests, [], 'the workspace’s server received no request at all');
  });

  it('starts an agent job on the user’s service, and the decoy still receives nothing', async function () {
    const before = wb.requests('/v2/agent/').length;
    const sent = await step(wb, 'Fix Docs with Agent…, reviewed and sent', () => fixDocsThroughReview(wb, 'Say that the connect timeout default is 30 s.'));
    await step(wb, 'the job is listed, and polled with the admin key', async () => {
      await wb.showDocsAssistant();
      await wb.jobRow(/connect timeout default/);
      await wb.command('Docs Assistant: Refresh Agent Jobs');
      await wb.page.waitForTimeout(500);
    });
    const agentCalls = wb.requests('/v2/agent/').slice(before);
    assert.ok(
      agentCalls.some((r) => r.method === 'POST' && (r.body as { prompt?: string }).prompt === sent),
      'the user’s service got the job',
    );
    assert.ok(
      agentCalls.every((r) => r.auth === 'admin'),
      'with the admin key',
    );
    assert.deepEqual(decoy.requests, [], 'the workspace’s server received no request at all');
  });
});
