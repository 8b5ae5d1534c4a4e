import * as vscode from 'vscode';
import type { ChatSnapshot, ErrorAction, RequestHandlers } from '../../common/protocol';
import { readConfig } from '../../host/vscode/config';
import type { Log } from '../../host/vscode/log';
import type { ChatSession } from '../core/chatSession';
import type { EditorBridge } from './editorBridge';
import { answerMarkdown } from '../core/exportMarkdown';
import { loadImage } from '../core/imageLoader';
import { trustedImageOrigins, type ResolveHost } from '../core/imagePolicy';
import type { ChatJobCards } from '../core/jobCards';
import { safeExternalUrl } from '../core/webviewMessages';

// What the host does for each request of the chat webview: one handler per request name, typed
// by the protocol's map, so a request without a handler does not compile. Payloads arrive
// already read through their schema (webviewMessages.ts): every field here is what its type says.

/** The parts of the chat the handlers use; read when a request comes in, not when they are built. */
export interface ChatParts {
  readonly session: ChatSession;
  readonly editor: EditorBridge;
  readonly jobCards: ChatJobCards;
  /** The Accessible View of an answer (accessibleView.ts). */
  readonly accessibleViews: { openAnswer(turnId: string): Promise<boolean> };
  readonly log: Log;
  /** The host's DNS lookup for a clicked image's address; undefined in a browser. */
  readonly resolveHost: ResolveHost | undefined;
  snapshot(): ChatSnapshot;
}

export function chatRequestHandlers(chat: ChatParts): RequestHandlers {
  return {
    // Builds the snapshot before it returns, never after an await: core/pageChannel.ts counts on it.
    ready: () => chat.snapshot(),
    send: ({ text }) => chat.session.ask(text),
    stop: () => chat.session.stop(),
    saveDraft: ({ text }) => chat.session.saveDraft(text),
    removeChip: ({ chipId }) => chat.session.removeChip(chipId),
    toggleChipType: ({ chipId }) => chat.session.toggleChipType(chipId),
    openLink: async ({ url }) => ({ opened: await openLink(url, chat.log) }),
    copyCode: async ({ code }) => vscode.env.clipboard.writeText(code),
    insertCode: async ({ code }) => ({ inserted: await chat.editor.insertCode(code) }),
    copyAnswer: ({ turnId }) => copyAnswer(chat.session, turnId),
    runAction: ({ action, turnId }) => runAction(chat.session, action, turnId),
    fixInDocs: ({ turnId }) => chat.jobCards.fixInDocs(turnId),
    jobAction: ({ jobId, action }) => chat.jobCards.act(jobId, action),
    loadImage: ({ url }) => loadImage(url, vscode.l10n.t, { trustedOrigins: configuredOrigins(), resolve: chat.resolveHost }),
    openAccessibleView: async ({ turnId }) => ({ opened: await chat.accessibleViews.openAnswer(turnId) }),
  };
}

/** Where a click may load an image from even on this machine: what the user's settings name (the emulator's docs site). */
function configuredOrigins(): string[] {
  const cfg = readConfig();
  return trustedImageOrigins(cfg.docsSiteUrl, cfg.baseUrl, cfg.imageOrigins);
}

async function openLink(raw: string, log: Log): Promise<boolean> {
  const url = safeExternalUrl(raw);
  if (!url) {
    log.warn('Refused to open a link that is not http(s).');
    return false;
  }
  // openExternal goes through VS Code's own link protection (the trusted-domains prompt).
  return vscode.env.openExternal(vscode.Uri.parse(url, true));
}

/** An answer of the conversation on screen, as Markdown with its sources, to the clipboard. */
async function copyAnswer(session: ChatSession, turnId: string): Promise<{ copied: boolean }> {
  const turn = session.conversation.turns.find((t) => t.id === turnId);
  if (!turn) return { copied: false };
  await vscode.env.clipboard.writeText(answerMarkdown(turn.answer, vscode.l10n.t));
  return { copied: true };
}

/** An error's button, or the setup banner's. */
async function runAction(session: ChatSession, action: ErrorAction, turnId: string | undefined): Promise<void> {
  if (action === 'retry' && turnId) await session.retry(turnId);
  else if (action === 'setAssistantKey') await vscode.commands.executeCommand('docsAssistant.setAssistantKey');
  else if (action === 'newConversation') await session.newConversation();
  else if (action === 'openSettings') await vscode.commands.executeCommand('docsAssistant.configure');
}
