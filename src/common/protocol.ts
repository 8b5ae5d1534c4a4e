// The one place where the messages between the extension host and the chat webview are typed.
// Both sides import this file; it must stay free of `vscode`, Node and DOM-only imports.
//
// Shape (after Continue's core/protocol): every webview→host message name maps to a
// [request, response] pair. The webview sends `{kind:'request', id, name, payload}` and the host
// answers `{kind:'response', id, ok, payload|error}`. Host→webview traffic is one-way
// notifications `{kind:'notify', name, payload}`. The webview sends `ready` first (the handshake,
// as in vscode-pull-request-github's common/webview.ts); the host sends nothing before it.

// ---------------------------------------------------------------------------
// View models: what the webview renders. Built on the host from the conversation model.

export type ContextKind = 'code' | 'textSelection';

export interface ContextChip {
  id: string;
  type: ContextKind;
  /** Workspace-relative path of the file the selection came from. */
  path?: string;
  /** 1-based inclusive line range, for the chip's label. */
  startLine?: number;
  endLine?: number;
  languageId?: string;
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

export type ErrorAction = 'retry' | 'setAssistantKey' | 'newConversation' | 'openSettings';

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
// Webview → host requests: name → [request payload, response payload].

export interface WebviewRequests {
  ready: [Record<string, never>, ChatSnapshot];
  send: [{ text: string }, { accepted: boolean; reason?: string }];
  stop: [Record<string, never>, void];
  retry: [{ turnId: string }, void];
  newConversation: [Record<string, never>, void];
  saveDraft: [{ text: string }, void];
  removeChip: [{ chipId: string }, void];
  toggleChipType: [{ chipId: string }, void];
  openLink: [{ url: string }, { opened: boolean }];
  copyCode: [{ code: string }, void];
  insertCode: [{ code: string }, { inserted: boolean }];
  runAction: [{ action: ErrorAction; turnId?: string }, void];
  /** Asks the host to start the agent flow; the host always asks the user before anything is sent. */
  fixInDocs: [{ turnId: string }, void];
  jobAction: [{ jobId: string; action: 'openPullRequest' | 'followUp' | 'showJob' }, void];
  showHistory: [Record<string, never>, void];
  /** The user clicked an image placeholder: the host fetches it (bounded) and returns a data: URL. */
  loadImage: [{ url: string }, { dataUrl?: string; error?: string }];
}

export type WebviewRequestName = keyof WebviewRequests;
export type RequestPayload<N extends WebviewRequestName> = WebviewRequests[N][0];
export type ResponsePayload<N extends WebviewRequestName> = WebviewRequests[N][1];

// ---------------------------------------------------------------------------
// Host → webview notifications.

export interface HostNotifications {
  /** Replace everything (conversation switched, reload, structural change). */
  snapshot: ChatSnapshot;
  /** One or more patches to the answer of one turn. */
  patch: { turnId: string; patches: AnswerPatch[] };
  /** The host wants focus in the input box (e.g. after "Ask Docs About Selection"). */
  focusInput: Record<string, never>;
}

export type HostNotificationName = keyof HostNotifications;

// ---------------------------------------------------------------------------
// Envelopes

export interface RequestEnvelope<N extends WebviewRequestName = WebviewRequestName> {
  kind: 'request';
  id: number;
  name: N;
  payload: RequestPayload<N>;
}

export type ResponseEnvelope =
  | { kind: 'response'; id: number; ok: true; payload: unknown }
  | { kind: 'response'; id: number; ok: false; error: string };

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
