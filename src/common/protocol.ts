// The one place where the messages between the extension host and the chat webview are typed.
// Both sides import this file; it must stay free of `vscode`, Node and DOM-only imports.
//
// Shape (after Continue's core/protocol): every webview→host message name maps to a
// [request, response] pair. The webview sends `{kind:'request', id, name, payload}` and the host
// answers `{kind:'response', id, ok, payload|error}`. Host→webview traffic is one-way
// notifications `{kind:'notify', name, payload}`. The webview sends `ready` first (the handshake,
// as in vscode-pull-request-github's common/webview.ts); the host sends nothing before it.
//
// What a request carries is declared once, as a schema (requestSchemas below): the host checks
// every message against it, and the payload's type is inferred from it. What the host does with
// each request is one handler per name (RequestHandlers), so a message without one does not compile.

import { empty, literal, object, optional, str, type Infer } from './schema';
import type { ContextKind, Selection } from './selection';
export type { ContextKind };

// ---------------------------------------------------------------------------
// View models: what the webview renders. Built on the host from the conversation model.

/**
 * A selection (selection.ts) attached to a question: where it is from (for the chip's label), its
 * kind, and its text as it will be sent, under the name the request and the stored conversations
 * use (`value`), possibly cut to what one question may carry.
 */
export interface ContextChip extends Partial<Omit<Selection, 'text'>> {
  id: string;
  type: ContextKind;
  /** The (possibly truncated) selected text that will be sent. */
  value: string;
  /** Set when the selection was cut to the configured maximum. */
  truncatedFrom?: number;
}

export interface SourceView {
  url?: string;
  title: string;
}

export type AnswerPartView =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string; done: boolean }
  | { kind: 'tool'; toolName: string; query?: string; state: 'running' | 'done' | 'error'; resultCount?: number; errorText?: string };

export type AnswerStatus = 'waiting' | 'streaming' | 'done' | 'stopped' | 'error';

/** The buttons an error (or the setup banner) offers; the webview asks for one with `runAction`. */
export const ERROR_ACTIONS = ['retry', 'setAssistantKey', 'newConversation', 'openSettings'] as const;
export type ErrorAction = (typeof ERROR_ACTIONS)[number];

export interface ErrorView {
  message: string;
  kind: string;
  /** Absolute time (ms since epoch) before which a retry is pointless (429 Retry-After). */
  retryAt?: number;
  actions: ErrorAction[];
}

export interface JobCardView {
  jobId: string;
  status: 'active' | 'completed' | 'archived' | 'failed' | 'unknown';
  prLink?: string | null;
  label: string;
  /** Shown as text; the host opens the address it keeps for the job, never this one. */
  previewUrl?: string | null;
}

export interface AnswerView {
  parts: AnswerPartView[];
  sources: SourceView[];
  status: AnswerStatus;
  error?: ErrorView;
  /** Non-fatal notes: e.g. "1 malformed chunk skipped". */
  notices: string[];
  jobs: JobCardView[];
}

export interface TurnView {
  id: string;
  question: string;
  context: ContextChip[];
  answer: AnswerView;
}

export interface ChatSnapshot {
  conversationId: string;
  title: string;
  turns: TurnView[];
  /** Chips attached to the next question. */
  pendingContext: ContextChip[];
  draft: string;
  busy: boolean;
  /** Earlier questions, newest last, for ↑/↓ in an empty input. */
  inputHistory: string[];
  /** Whether "Fix This in the Docs" is offered (the agent flow is configured). */
  agentAvailable: boolean;
  /** A one-line reason the chat cannot send yet (missing base URL, domain or key), or undefined. */
  setupHint?: { message: string; action: 'setAssistantKey' | 'openSettings' };
  /**
   * Whether the page says "Chat request sent" when a question goes out: VS Code's
   * `accessibility.signals.chatRequestSent` announcement setting, read by the host (the page cannot).
   */
  announceRequestSent?: boolean;
}

// ---------------------------------------------------------------------------
// Incremental updates for the streaming answer, batched per animation frame on the host.

export type AnswerPatch =
  | { op: 'appendText'; part: number; text: string }
  | { op: 'setPart'; part: number; value: AnswerPartView }
  | { op: 'setSources'; sources: SourceView[] }
  | { op: 'setStatus'; status: AnswerStatus; error?: ErrorView }
  | { op: 'setNotices'; notices: string[] }
  | { op: 'setJobs'; jobs: JobCardView[] };

// ---------------------------------------------------------------------------
// Webview → host requests. The webview renders text from the network, so the host treats what
// it sends as hostile: each request's payload is read through its schema, and a message that
// does not fit is dropped.

/** The longest text of each kind the webview may send. The host passes src/api's limits, which this file cannot import. */
export interface RequestLimits {
  /** The input box's text (a question, a draft). */
  inputChars: number;
  /** Code from an answer, which is at most an answer long. */
  codeChars: number;
}

const ID_CHARS = 200;
const URL_CHARS = 8192;

/** One schema per request: what its payload may hold. Unknown fields are dropped. */
export function requestSchemas(limits: RequestLimits) {
  const id = str(ID_CHARS);
  return {
    ready: empty,
    send: object({ text: str(limits.inputChars) }),
    stop: empty,
    saveDraft: object({ text: str(limits.inputChars) }),
    removeChip: object({ chipId: id }),
    toggleChipType: object({ chipId: id }),
    openLink: object({ url: str(URL_CHARS) }),
    copyCode: object({ code: str(limits.codeChars) }),
    insertCode: object({ code: str(limits.codeChars) }),
    /** An answer's Copy: the host writes that answer, as Markdown with its sources, to the clipboard. */
    copyAnswer: object({ turnId: id }),
    /** An error's or the setup banner's button: retry (a turn), set the key, start over, settings. */
    runAction: object({ action: literal(...ERROR_ACTIONS), turnId: optional(id) }),
    /** Asks the host to start the agent flow; the host always asks the user before anything is sent. */
    fixInDocs: object({ turnId: id }),
    jobAction: object({ jobId: id, action: literal('openPullRequest', 'followUp', 'showJob', 'reviewChanges', 'openPreview') }),
    /** The user clicked an image placeholder: the host fetches it (bounded) and returns a data: URL. */
    loadImage: object({ url: str(URL_CHARS) }),
    /** An answer's "Accessible View": the host shows that answer, from the conversation it keeps, in a read-only editor. */
    openAccessibleView: object({ turnId: id }),
  } satisfies Record<keyof WebviewRequests, unknown>;
}

type RequestSchemas = ReturnType<typeof requestSchemas>;
type Payload<N extends keyof RequestSchemas> = Infer<RequestSchemas[N]>;

/** Webview → host: name → [request payload (from its schema), response payload]. */
export interface WebviewRequests {
  ready: [Payload<'ready'>, ChatSnapshot];
  send: [Payload<'send'>, { accepted: boolean; reason?: string }];
  stop: [Payload<'stop'>, void];
  saveDraft: [Payload<'saveDraft'>, void];
  removeChip: [Payload<'removeChip'>, void];
  toggleChipType: [Payload<'toggleChipType'>, void];
  openLink: [Payload<'openLink'>, { opened: boolean }];
  copyCode: [Payload<'copyCode'>, void];
  insertCode: [Payload<'insertCode'>, { inserted: boolean }];
  copyAnswer: [Payload<'copyAnswer'>, { copied: boolean }];
  runAction: [Payload<'runAction'>, void];
  fixInDocs: [Payload<'fixInDocs'>, void];
  jobAction: [Payload<'jobAction'>, void];
  loadImage: [Payload<'loadImage'>, { dataUrl?: string; error?: string }];
  openAccessibleView: [Payload<'openAccessibleView'>, { opened: boolean }];
}

export type WebviewRequestName = keyof WebviewRequests;
export type RequestPayload<N extends WebviewRequestName> = WebviewRequests[N][0];
export type ResponsePayload<N extends WebviewRequestName> = WebviewRequests[N][1];

/**
 * What the host does for each request: one handler per name, typed by the map. A request without
 * a handler, or a handler with the wrong payload or reply, is a compile error.
 */
export type RequestHandlers = { [N in WebviewRequestName]: (payload: RequestPayload<N>) => Promise<ResponsePayload<N>> | ResponsePayload<N> };

// ---------------------------------------------------------------------------
// Host → webview notifications.

export interface HostNotifications {
  /** Replace everything (conversation switched, reload, structural change). */
  snapshot: ChatSnapshot;
  /** One or more patches to the answer of one turn. */
  patch: { turnId: string; patches: AnswerPatch[] };
  /**
   * The host wants focus in the input box (e.g. after "Ask Docs About Selection"); with `text`,
   * that text fills it (a command's question, sent only when the user presses Send).
   */
  focusInput: { text?: string };
}

export type HostNotificationName = keyof HostNotifications;

/** What the webview does with each notification: one handler per name, so a name without one does not compile. */
export type NotificationHandlers = { [N in HostNotificationName]: (payload: HostNotifications[N]) => void };

// ---------------------------------------------------------------------------
// Envelopes

export interface RequestEnvelope<N extends WebviewRequestName = WebviewRequestName> {
  kind: 'request';
  id: number;
  name: N;
  payload: RequestPayload<N>;
}

/** Any one request, its payload tied to its name (checking `name` narrows `payload`). */
export type AnyRequestEnvelope = { [N in WebviewRequestName]: RequestEnvelope<N> }[WebviewRequestName];

export type ResponseEnvelope = { kind: 'response'; id: number; ok: true; payload: unknown } | { kind: 'response'; id: number; ok: false; error: string };

export interface NotifyEnvelope<N extends HostNotificationName = HostNotificationName> {
  kind: 'notify';
  name: N;
  payload: HostNotifications[N];
}

export type HostToWebviewMessage = ResponseEnvelope | NotifyEnvelope;

/** The state the webview keeps with `setState`, so scroll position survives hide/show and reload. */
export interface WebviewPersistedState {
  conversationId?: string;
  scrollTop?: number;
  /** True when the user was pinned to the bottom (auto-scroll on). */
  pinned?: boolean;
}
