// Typed shapes of the service's requests and responses (service-interface.md §2, notes.md).
// This layer is plain TypeScript: it must never import `vscode`.

// ---------------------------------------------------------------------------
// Agent jobs (§2.1, §4.1–4.3)

export type AgentJobStatus = 'active' | 'completed' | 'archived' | 'failed';

export const AGENT_JOB_STATUSES: readonly AgentJobStatus[] = ['active', 'completed', 'archived', 'failed'];

export interface AgentJob {
  id: string;
  status: AgentJobStatus;
  source: { repository: string; ref: string | null };
  model: string;
  prLink: string | null;
  createdAt: string;
  archivedAt: string | null;
}

// ---------------------------------------------------------------------------
// Preview deployments (notes.md "Preview deployments"; beyond the interface, so detected)

export type PreviewState = 'queued' | 'in_progress' | 'success' | 'failure';

export const PREVIEW_STATES: readonly PreviewState[] = ['queued', 'in_progress', 'success', 'failure'];

/** What a preview request answers (202): the status to poll, and where the preview will be. */
export interface PreviewDeployment {
  statusId: string;
  previewUrl: string;
}

/** One poll of a preview's status. */
export interface PreviewStatus {
  id: string;
  status: PreviewState;
  summary: string;
  logs: string[];
  createdAt: string | null;
  endedAt: string | null;
  /** The commit deployed, when the service says. */
  commit?: { sha: string; ref: string };
}

// ---------------------------------------------------------------------------
// Reader analytics (notes.md "Reader analytics"; beyond the interface, so detected). Every field
// is optional on the wire: src/api/analyticsShape.ts reads each entry, drops what is not one, and
// bounds every string. Everything here was written by readers or the service: untrusted text.

export type FeedbackSource = 'code_snippet' | 'contextual' | 'agent' | 'thumbs_only';
export const FEEDBACK_SOURCES: readonly FeedbackSource[] = ['code_snippet', 'contextual', 'agent', 'thumbs_only'];

export type FeedbackStatus = 'pending' | 'in_progress' | 'resolved' | 'dismissed';
export const FEEDBACK_STATUSES: readonly FeedbackStatus[] = ['pending', 'in_progress', 'resolved', 'dismissed'];

/** One reader's feedback on a page (GET /v1/analytics/{projectId}/feedback). */
export interface FeedbackEntry {
  id: string;
  /** The page: a path (`/quickstart`) or a URL on the docs site, as the service wrote it. */
  path: string;
  comment: string | null;
  createdAt: string | null;
  source: FeedbackSource;
  status: FeedbackStatus;
  /** `contextual`: thumbs up (true) or down (false). */
  helpful?: boolean;
  /** `code_snippet`: the snippet the feedback is about. */
  code?: string;
  filename?: string;
  language?: string;
}

/** A page's counts (GET …/feedback/by-page). */
export interface PageFeedbackCounts {
  path: string;
  thumbsUp: number;
  thumbsDown: number;
  /** Code-snippet feedback on the page. */
  code: number;
  total: number;
}

/** One assistant conversation as analytics reports it (GET …/assistant). */
export interface AssistantConversationRecord {
  id: string;
  timestamp: string | null;
  query: string;
  response: string;
  responseType: 'answer' | 'clarifying_question';
  sources: { title: string; url: string }[];
  /** `unanswered`: a question the docs did not cover. */
  resolutionStatus: 'answered' | 'unanswered';
  queryCategory: string | null;
}

/** One search readers made (GET …/searches), ordered by hits. */
export interface SearchRecord {
  searchQuery: string;
  hits: number;
  /** Click-through rate, 0–1. */
  ctr: number;
  topClickedPage: string | null;
  lastSearchedAt: string | null;
}

/** The query every analytics read takes: `dateTo` is exclusive; `limit` is 1–100. */
export interface AnalyticsQuery {
  dateFrom: string;
  dateTo: string;
  limit?: number;
  cursor?: string;
  /** Feedback only: which statuses (sent comma-separated). */
  status?: readonly FeedbackStatus[];
  /** Feedback only. */
  source?: FeedbackSource;
}

/** One page of an analytics read. `nextCursor` is null (or absent) on the last page. */
export interface AnalyticsPage<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
  /** Entries the shape check dropped from this page (not objects, missing required fields). */
  dropped: number;
}

// ---------------------------------------------------------------------------
// Assistant request (§2.3)

export type MessageRole = 'system' | 'user' | 'assistant';

export interface TextPart {
  type: 'text';
  text: string;
}

/** v2 message shape; v1 additionally carries `content`, added by the request builder. */
export interface ChatMessage {
  id: string;
  role: MessageRole;
  parts: TextPart[];
}

export type ContextType = 'code' | 'textSelection';

export interface ContextItem {
  type: ContextType;
  value: string;
  path?: string;
  elementId?: string;
}

export interface SearchFilter {
  version?: string;
  language?: string;
  groups?: string[];
}

export type AssistantApiVersion = 'v1' | 'v2';

/** What a caller gives `AssistantClient.send`; the wire body is built from it. */
export interface AssistantRequest {
  fp: string;
  messages: ChatMessage[];
  threadId?: string | null;
  /** Not in the OpenAPI; sent only when the service handed one out (notes.md, "Threads"). */
  threadKey?: string | null;
  retrievalPageSize?: number;
  filter?: SearchFilter | null;
  context?: ContextItem[];
  currentPath?: string;
}

/** What a question carries from the settings, beside its messages. */
export interface RequestSettings {
  fp: string;
  retrievalPageSize: number;
  filter: SearchFilter | null;
}

// ---------------------------------------------------------------------------
// UI message stream chunks (AI SDK v5 "UI message stream"; notes.md)

export type UIMessageChunk =
  | { type: 'start'; messageId?: string; messageMetadata?: unknown }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'reasoning-end'; id: string }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string }
  | { type: 'tool-input-delta'; toolCallId: string; inputTextDelta: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-input-error'; toolCallId: string; toolName: string; input: unknown; errorText: string }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string }
  | { type: 'source-url'; sourceId: string; url: string; title?: string }
  | { type: 'source-document'; sourceId: string; mediaType: string; title: string; filename?: string }
  | { type: 'file'; url: string; mediaType: string }
  | { type: `data-${string}`; id?: string; data: unknown; transient?: boolean }
  | { type: 'error'; errorText: string }
  | { type: 'abort'; reason?: string }
  | { type: 'message-metadata'; messageMetadata: unknown }
  | { type: 'finish'; finishReason?: string; messageMetadata?: unknown; threadId?: string };

// ---------------------------------------------------------------------------
// The assembled assistant message (what the reducer builds from chunks)

export interface AssembledTextPart {
  type: 'text';
  id: string;
  text: string;
  done: boolean;
}

export interface AssembledReasoningPart {
  type: 'reasoning';
  id: string;
  text: string;
  done: boolean;
}

export type ToolCallState = 'input-streaming' | 'input-available' | 'input-error' | 'output-available' | 'output-error';

export interface AssembledToolCall {
  type: 'tool';
  toolCallId: string;
  toolName: string;
  state: ToolCallState;
  /** Raw streamed input text until the full input is available. */
  inputText: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
}

export interface AssembledSource {
  sourceId: string;
  kind: 'url' | 'document';
  url?: string;
  title?: string;
  mediaType?: string;
  filename?: string;
}

export interface AssembledFile {
  url: string;
  mediaType: string;
}

export interface AssembledDataPart {
  type: `data-${string}`;
  id?: string;
  data: unknown;
}

/** Parts kept in arrival order, so a renderer can show text, reasoning and tools where they came. */
export type AssembledPart = AssembledTextPart | AssembledReasoningPart | AssembledToolCall;

export interface AssembledMessage {
  messageId?: string;
  parts: AssembledPart[];
  sources: AssembledSource[];
  files: AssembledFile[];
  data: AssembledDataPart[];
  /** `error` chunks from the service, in order. */
  errors: string[];
  metadata?: unknown;
  finishReason?: string;
  /** Set when the stream finished with a `finish` chunk. */
  finished: boolean;
  /** Set when the service sent an `abort` chunk. */
  aborted: boolean;
  abortReason?: string;
  threadId?: string;
  threadKey?: string;
  /** Count of chunks that were skipped: unknown types, or not JSON. */
  skippedChunks: number;
  /**
   * Set when the client stopped the answer at one of its bounds (issue 16): it had streamed more
   * bytes, or for longer, than one answer may. `limit` is that bound in words ("2 MB", "15 minutes").
   */
  cutOff?: { reason: 'size' | 'time'; limit: string };
}

/** Events `AssistantClient.send` yields while the answer streams. */
export type AssistantStreamEvent =
  | { type: 'response'; threadId?: string; threadKey?: string; status: number }
  | { type: 'chunk'; chunk: UIMessageChunk; message: AssembledMessage }
  | { type: 'skipped'; reason: 'unknown-type' | 'malformed'; detail: string };
