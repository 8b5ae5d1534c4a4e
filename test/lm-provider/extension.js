// TEST-ONLY extension, never shipped (.vscodeignore ships only the files it names; this folder is
// not one of them). The e2e harness (test/e2e/chatView.ts) packs it and installs it into
// code-server on VS Code >= 1.104 only, so that VS Code's own Chat view can send with no sign-in.
// Plain CommonJS so that it needs no build; @types/vscode in the project is 1.90 and has none of
// the language model provider API, so nothing here is type-checked.
//
// It contributes:
// - a language model (vendor `docs-assistant-test`, id MODEL_ID) whose replies are deterministic:
//   it echoes the last user message; when the request offers a tool the message asks for (its
//   name, or `#docs` for docs-assistant_searchDocs, `#fixDocs` for docs-assistant_fixDocs,
//   `#fakeEcho` for fakeLm_echo, or toolMode Required) it calls that tool with the message, taken
//   out of the tool's reference, as `{ query }` (`{ instruction }` for a tool whose input schema
//   asks for one); once the tool result comes back it answers with the result's first line, so a
//   test can see that the tool's output reached the model;
// - `@fakeecho`, a participant that replies through the chat's selected model (request.model),
//   with one reference and one button;
// - `fakeLm_echo`, a tool that returns its query;
// - `@fakeagent`, a STAND-IN FOR VS CODE'S BUILT-IN AGENT MODE. The built-in agent belongs to the
//   bundled Copilot Chat, which wants a GitHub sign-in that an offline test cannot give. This
//   participant is declared `isDefault` for the ask/edit/agent modes (proposed APIs
//   `defaultChatParticipant` and `chatProvider`; code-server runs with
//   `--enable-proposed-api docs-assistant-test.fake-lm`), so a prompt with no @participant reaches
//   it. It runs the agent loop the built-in one would: the model, offered our tools, asks for a
//   tool; the tool runs through vscode.lm.invokeTool; its result goes back to the model.
'use strict';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS, so that it needs no build
const vscode = require('vscode');

const VENDOR = 'docs-assistant-test';
const MODEL_ID = 'docs-assistant-test-fake-model';
/** The only tools the stand-in agent offers the model: ours, and the test's own echo tool. */
const AGENT_TOOLS = ['docs-assistant_searchDocs', 'docs-assistant_fixDocs', 'fakeLm_echo'];
/** How a prompt may name a tool besides its full name. */
const TOOL_REFERENCES = { 'docs-assistant_searchDocs': '#docs', 'docs-assistant_fixDocs': '#fixDocs', fakeLm_echo: '#fakeEcho' };

// ---- message parts, by shape (the provider may get the API's classes or plain copies) ----------

const isText = (p) => p && typeof p.value === 'string' && p.callId === undefined;
const isToolCall = (p) => p && typeof p.callId === 'string' && typeof p.name === 'string' && 'input' in p;
const isToolResult = (p) => p && typeof p.callId === 'string' && Array.isArray(p.content) && !('name' in p);
const textOf = (parts) =>
  (parts || [])
    .filter(isText)
    .map((p) => p.value)
    .join('');
const contentOf = (m) => (Array.isArray(m.content) ? m.content : typeof m.content === 'string' ? [new vscode.LanguageModelTextPart(m.content)] : []);

/** The first non-empty line of a tool result's text parts. */
function firstLine(result) {
  return (
    textOf(result.content)
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l) || '(empty tool result)'
  );
}

/** The user's text with tool references such as `use #docs` taken out. */
function queryFrom(text) {
  return text
    .replace(/\b(?:use\s+)?#(?:docs|fixDocs|fakeEcho)\b[:,]?\s*/gi, '')
    .replace(/\s+/g, ' ')
    .trim();
}

// ---- the fake model ----------------------------------------------------------------------------

const modelInfo = {
  id: MODEL_ID,
  name: 'Fake LM (test)',
  family: 'docs-assistant-test-fake',
  version: '1',
  tooltip: 'Test-only deterministic model',
  detail: 'test',
  maxInputTokens: 128000,
  maxOutputTokens: 8000,
  isUserSelectable: true,
  capabilities: { toolCalling: true, imageInput: false },
};

async function report(progress, text, token) {
  // Stream in a few pieces, as a real model does.
  const pieces = text.match(/\S+\s*/g) || [text];
  for (let i = 0; i < pieces.length; i += 4) {
    if (token.isCancellationRequested) return;
    progress.report(new vscode.LanguageModelTextPart(pieces.slice(i, i + 4).join('')));
    await new Promise((r) => setTimeout(r, 15));
  }
}

const provider = {
  onDidChangeLanguageModelChatInformation: new vscode.EventEmitter().event,
  provideLanguageModelChatInformation() {
    return [modelInfo];
  },
  async provideLanguageModelChatResponse(_model, messages, options, progress, token) {
    const last = messages[messages.length - 1];
    const lastParts = last ? contentOf(last) : [];
    const results = lastParts.filter(isToolResult);
    if (results.length) {
      // The tool ran: answer with what it returned.
      const calls = messages.flatMap((m) => contentOf(m).filter(isToolCall));
      const lines = results.map((r) => {
        const call = calls.find((c) => c.callId === r.callId);
        return `Fake model read the result of ${call ? call.name : 'a tool'}: "${firstLine(r)}"`;
      });
      await report(progress, lines.join('\n\n'), token);
      return;
    }
    const text = textOf(lastParts);
    const tools = options.tools || [];
    const required = options.toolMode === vscode.LanguageModelChatToolMode.Required;
    const asked =
      tools.find((t) => text.includes(t.name) || (TOOL_REFERENCES[t.name] && text.includes(TOOL_REFERENCES[t.name]))) || (required ? tools[0] : undefined);
    if (asked) {
      const said = queryFrom(text) || text;
      const wantsInstruction = !!(asked.inputSchema && asked.inputSchema.properties && asked.inputSchema.properties.instruction);
      progress.report(new vscode.LanguageModelToolCallPart(`fake-call-${Date.now()}`, asked.name, wantsInstruction ? { instruction: said } : { query: said }));
      return;
    }
    const userMessages = messages.filter((m) => m.role === vscode.LanguageModelChatMessageRole.User && !contentOf(m).some(isToolResult)).length;
    await report(progress, `Fake model heard: "${text.slice(0, 2000)}" (user message ${userMessages})`, token);
  },
  async provideTokenCount(_model, text) {
    const s = typeof text === 'string' ? text : textOf(contentOf(text));
    return Math.ceil(s.length / 4);
  },
};

// ---- participants ------------------------------------------------------------------------------

/** The conversation so far, as model messages (each participant sees its own turns). */
function historyMessages(context) {
  const out = [];
  for (const turn of context.history) {
    if (turn instanceof vscode.ChatRequestTurn) out.push(vscode.LanguageModelChatMessage.User(turn.prompt));
    else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response
        .map((p) => (p instanceof vscode.ChatResponseMarkdownPart ? p.value.value : ''))
        .join('')
        .trim();
      if (text) out.push(vscode.LanguageModelChatMessage.Assistant(text));
    }
  }
  return out;
}

async function fakeEcho(request, context, stream, token) {
  const messages = [...historyMessages(context), vscode.LanguageModelChatMessage.User(request.prompt)];
  const response = await request.model.sendRequest(messages, {}, token);
  stream.markdown(`fakeecho via ${request.model.id}: `);
  for await (const chunk of response.text) stream.markdown(chunk);
  // One of each for the harness's reader (test/e2e/chatView.ts readChatResponse) to find.
  stream.reference(vscode.Uri.parse('https://docs.example.com/fakeecho/reference'));
  stream.button({ command: 'workbench.action.focusActiveEditorGroup', title: 'Fake echo button' });
}

/** STAND-IN for VS Code's built-in agent (which needs a GitHub sign-in): the same loop, our tools only. */
async function standInAgent(request, context, stream, token) {
  const tools = vscode.lm.tools.filter((t) => AGENT_TOOLS.includes(t.name));
  const referenced = (request.toolReferences || []).map((r) => r.name).filter((n) => AGENT_TOOLS.includes(n));
  const messages = [...historyMessages(context), vscode.LanguageModelChatMessage.User(request.prompt)];
  for (let round = 0; round < 5; round++) {
    // A tool the user referenced (#docs) is offered alone and must be called, as the built-in agent does.
    const offered = round === 0 && referenced.length ? tools.filter((t) => referenced.includes(t.name)) : tools;
    const options = { tools: offered };
    if (round === 0 && referenced.length) options.toolMode = vscode.LanguageModelChatToolMode.Required;
    const response = await request.model.sendRequest(messages, options, token);
    const calls = [];
    let text = '';
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) {
        text += part.value;
        stream.markdown(part.value);
      } else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    }
    if (!calls.length) return;
    messages.push(vscode.LanguageModelChatMessage.Assistant([...(text ? [new vscode.LanguageModelTextPart(text)] : []), ...calls]));
    const results = [];
    for (const call of calls) {
      const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token);
      results.push(new vscode.LanguageModelToolResultPart(call.callId, result.content));
    }
    messages.push(vscode.LanguageModelChatMessage.User(results));
  }
  stream.markdown('\n\n(stand-in agent: stopped after 5 rounds)');
}

// ---- activation --------------------------------------------------------------------------------

function activate(context) {
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(VENDOR, provider));
  // Resolve the vendor now: otherwise the workbench asks lazily, the model picker stays empty and
  // sending fails with "Language model unavailable".
  Promise.resolve(vscode.lm.selectChatModels({ vendor: VENDOR })).catch(() => undefined);

  context.subscriptions.push(
    vscode.lm.registerTool('fakeLm_echo', {
      invoke(options) {
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`fakeLm_echo got: ${options.input && options.input.query}`)]);
      },
    }),
  );

  const echo = vscode.chat.createChatParticipant('docs-assistant-test.fakeecho', fakeEcho);
  const agent = vscode.chat.createChatParticipant('docs-assistant-test.agent', standInAgent);
  context.subscriptions.push(echo, agent);
}

module.exports = { activate, deactivate() {} };
