import assert from 'node:assert/strict';
import { askInChatView, FAKE_MODEL_ID, openChatView, readChatResponse, skipChatView } from './chatView';
import { step } from './workbench';
import { withStack } from './withStack';

// The harness for VS Code's own Chat view on its own, before any test of ours relies on it: the
// test-only model (test/lm-provider) makes the Chat view send with no sign-in, a participant's
// reply, button and reference are read back, a follow-up stays in the thread, and a prompt with no
// @participant reaches the stand-in for the built-in agent, which runs a tool through the model.
// VS Code 1.100 has no API for the model: there each test is skipped and says why.

describe('e2e: the Chat view harness (a test-only model, no sign-in)', function () {
  const e2e = withStack({ chatView: 'required' });

  before(async function () {
    if (e2e.unsupported) return;
    await step(e2e.wb, 'open the Chat view', () => openChatView(e2e.wb));
  });

  it('a participant answers through the fake model, with its button and reference (VS Code >= 1.104)', async function () {
    if (e2e.unsupported) skipChatView(this, e2e.unsupported);
    await step(e2e.wb, 'send @fakeecho hi', async () => {
      await askInChatView(e2e.wb, '@fakeecho hi');
    });
    const r = await readChatResponse(e2e.wb);
    await e2e.wb.shot('chat-view-harness-1-fakeecho');
    assert.equal(r.markdown, `fakeecho via ${FAKE_MODEL_ID}: Fake model heard: "hi" (user message 1)`);
    assert.deepEqual(r.buttons, ['Fake echo button']);
    assert.deepEqual(r.references, ['https://docs.example.com/fakeecho/reference']);
  });

  it('a follow-up to the participant carries the earlier turn (VS Code >= 1.104)', async function () {
    if (e2e.unsupported) skipChatView(this, e2e.unsupported);
    await step(e2e.wb, 'send a follow-up', async () => {
      await askInChatView(e2e.wb, '@fakeecho and again');
    });
    const r = await readChatResponse(e2e.wb);
    assert.equal(r.markdown, `fakeecho via ${FAKE_MODEL_ID}: Fake model heard: "and again" (user message 2)`);
  });

  it('agent mode: a plain prompt reaches the stand-in agent, which runs a #tool through the model (VS Code >= 1.104)', async function () {
    if (e2e.unsupported) skipChatView(this, e2e.unsupported);
    await step(e2e.wb, 'send a prompt with a #tool and no participant', async () => {
      await askInChatView(e2e.wb, 'use #fakeEcho about timeouts');
    });
    const r = await readChatResponse(e2e.wb);
    await e2e.wb.shot('chat-view-harness-2-agent-tool');
    const who = await e2e.wb.page.locator('.interactive-response.chat-most-recent-response .header .username').last().textContent();
    assert.equal(who, 'Stand-in agent (test)', 'the stand-in for the built-in agent answered');
    assert.equal(r.markdown, 'Fake model read the result of fakeLm_echo: "fakeLm_echo got: about timeouts"', "the tool's output reached the model");
  });
});
