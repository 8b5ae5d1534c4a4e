import assert from 'node:assert/strict';
import {
  FAKE_MODEL_ID,
  chatViewUnsupported,
  openChatView,
  readChatResponse,
  sendInChatView,
  skipChatView,
  startChatViewStack,
  waitForChatResponse,
} from './chatView';
import type { Stack } from './stack';
import { Workbench, closeBrowser, step } from './workbench';

// The harness for VS Code's own Chat view on its own, before any test of ours relies on it: the
// test-only model (test/lm-provider) makes the Chat view send with no sign-in, a participant's
// reply, button and reference are read back, a follow-up stays in the thread, and a prompt with no
// @participant reaches the stand-in for the built-in agent, which runs a tool through the model.
// VS Code 1.100 has no API for the model: there each test is skipped and says why.

describe('e2e: the Chat view harness (a test-only model, no sign-in)', function () {
  let unsupported: string | undefined;
  let stack: Stack | undefined;
  let wb: Workbench | undefined;

  before(async function () {
    unsupported = await chatViewUnsupported();
    if (unsupported) return;
    stack = await startChatViewStack();
    wb = await Workbench.open(stack);
    await step(wb, 'open the Chat view', () => openChatView(wb!));
  });

  after(async function () {
    await wb?.close();
    await closeBrowser();
    await stack?.close();
  });

  it('a participant answers through the fake model, with its button and reference (VS Code >= 1.104)', async function () {
    if (unsupported) skipChatView(this, unsupported);
    await step(wb, 'send @fakeecho hi', async () => {
      await sendInChatView(wb!, '@fakeecho hi');
      await waitForChatResponse(wb!);
    });
    const r = await readChatResponse(wb!);
    await wb!.shot('chat-view-harness-1-fakeecho');
    assert.equal(r.markdown, `fakeecho via ${FAKE_MODEL_ID}: Fake model heard: "hi" (user message 1)`);
    assert.deepEqual(r.buttons, ['Fake echo button']);
    assert.deepEqual(r.references, ['https://docs.example.com/fakeecho/reference']);
  });

  it('a follow-up to the participant carries the earlier turn (VS Code >= 1.104)', async function () {
    if (unsupported) skipChatView(this, unsupported);
    await step(wb, 'send a follow-up', async () => {
      await sendInChatView(wb!, '@fakeecho and again');
      await waitForChatResponse(wb!);
    });
    const r = await readChatResponse(wb!);
    assert.equal(r.markdown, `fakeecho via ${FAKE_MODEL_ID}: Fake model heard: "and again" (user message 2)`);
  });

  it('agent mode: a plain prompt reaches the stand-in agent, which runs a #tool through the model (VS Code >= 1.104)', async function () {
    if (unsupported) skipChatView(this, unsupported);
    await step(wb, 'send a prompt with a #tool and no participant', async () => {
      await sendInChatView(wb!, 'use #fakeEcho about timeouts');
      await waitForChatResponse(wb!);
    });
    const r = await readChatResponse(wb!);
    await wb!.shot('chat-view-harness-2-agent-tool');
    const who = await wb!.page.locator('.interactive-response.chat-most-recent-response .header .username').last().textContent();
    assert.equal(who, 'Stand-in agent (test)', 'the stand-in for the built-in agent answered');
    assert.equal(r.markdown, 'Fake model read the result of fakeLm_echo: "fakeLm_echo got: about timeouts"', "the tool's output reached the model");
  });
});
