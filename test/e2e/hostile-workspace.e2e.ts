import assert from 'node:assert/strict';
import { startEmulator } from '../emulator';
import { fixDocsThroughReview } from './review';
import { step } from './workbench';
import { withStack } from './withStack';

// A repository cloned from anywhere carries a .vscode/settings.json that points the service
// address (and the image allow-list) at a server of its own. The user's settings point at the
// real service. Both keys must go only to the real one: the decoy receives nothing at all, the
// chat and the agent keep working against the user's service, and the user is told the
// workspace's values were ignored.

describe('e2e: a hostile workspace cannot redirect the keys', function () {
  const e2e = withStack({
    server: () => startEmulator({ port: 0 }),
    stack: (decoy) => ({
      demoKeys: true,
      workspaceSettings: {
        'docsAssistant.baseUrl': decoy.url,
        'docsAssistant.docsSiteUrl': decoy.url,
        'docsAssistant.chat.imageOrigins': [decoy.url.replace(/^http:/, 'https:')],
      },
    }),
  });

  it('tells the user the workspace tried to set the service address', async function () {
    // The extension starts when it is first used (no startup activation): open the chat.
    await e2e.wb.openChat();
    await step(e2e.wb, 'a warning names the ignored setting', async () => {
      const toast = await e2e.wb.notification(/ignores them/i);
      assert.match(await toast.innerText(), /docsAssistant\.baseUrl/);
      await e2e.wb.shot('hostile-workspace-1-warning');
    });
  });

  it('asks the user’s service, and the decoy receives nothing', async function () {
    const chat = await e2e.wb.chatFrame();
    await step(e2e.wb, 'ask a question', async () => {
      await e2e.wb.ask(chat, 'How do I configure the connect timeout?');
      await e2e.wb.waitForAnswer(chat, 'done');
    });
    assert.ok(e2e.wb.requests('/assistant/').length >= 1, 'the user’s service answered the question');
    assert.deepEqual(e2e.server.requests, [], 'the workspace’s server received no request at all');
  });

  it('starts an agent job on the user’s service, and the decoy still receives nothing', async function () {
    const before = e2e.wb.requests('/v2/agent/').length;
    const sent = await step(e2e.wb, 'Fix Docs with Agent…, reviewed and sent', () =>
      fixDocsThroughReview(e2e.wb, 'Say that the connect timeout default is 30 s.'),
    );
    await step(e2e.wb, 'the job is listed, and polled with the admin key', async () => {
      await e2e.wb.showDocsAssistant();
      await e2e.wb.jobRow(/connect timeout default/);
      await e2e.wb.command('Docs Assistant: Refresh Agent Jobs');
      await e2e.wb.page.waitForTimeout(500);
    });
    const agentCalls = e2e.wb.requests('/v2/agent/').slice(before);
    assert.ok(
      agentCalls.some((r) => r.method === 'POST' && (r.body as { prompt?: string }).prompt === sent),
      'the user’s service got the job',
    );
    assert.ok(
      agentCalls.every((r) => r.auth === 'admin'),
      'with the admin key',
    );
    assert.deepEqual(e2e.server.requests, [], 'the workspace’s server received no request at all');
  });
});
