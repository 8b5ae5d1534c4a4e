// The service client's public surface: what the rest of src/ imports from src/api, and the only
// file it may import there (eslint.config.mjs refuses a path into src/api's files from outside).
// Everything else in src/api is an implementation detail that may change. Plain fetch: never
// imports `vscode`.

export type { ClientOptions } from './http';
export { DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_STREAM_IDLE_TIMEOUT_MS } from './http';
export { AgentClient, type AgentClientOptions, type CallOptions } from './agentClient';
export { PreviewClient, type PreviewClientOptions } from './previewClient';
export { parsePreviewDeployment, parsePreviewStatus, safePreviewUrl, MAX_PREVIEW_LOG_LINES, MAX_PREVIEW_LOG_LINE_CHARS } from './previewShape';
export { AnalyticsClient, analyticsParams, MAX_ANALYTICS_LIMIT, type AnalyticsClientOptions } from './analyticsClient';
export {
  parseFeedbackPage,
  parseFeedbackByPage,
  parseAssistantPage,
  parseSearchPage,
  boundText,
  MAX_COMMENT_CHARS,
  MAX_QUERY_CHARS,
  MAX_RESPONSE_CHARS,
  MAX_PATH_CHARS,
  MAX_CODE_CHARS,
  MAX_SOURCES_PER_CONVERSATION,
  MAX_CURSOR_CHARS,
} from './analyticsShape';
export { AssistantClient, type AssistantClientOptions } from './assistantClient';
export { SearchClient, searchBody, searchFilterBody, MAX_SEARCH_QUERY_CHARS, type SearchClientOptions } from './searchClient';
export {
  parseSearchHits,
  parseDocsPage,
  MAX_SEARCH_HITS,
  MAX_HIT_CONTENT_CHARS,
  MAX_HIT_PATH_CHARS,
  MAX_PAGE_CONTENT_CHARS,
  type DocsSearchFilter,
  type DocsSearchRequest,
  type DocsSearchHit,
  type DocsSearchResults,
  type DocsPageText,
} from './searchShape';
export { parseAgentJob } from './agentJob';
export { buildAssistantBody, trimCurrentPath, messageContent, CURRENT_PATH_MAX_CHARS, DEFAULT_RETRIEVAL_PAGE_SIZE } from './requestBody';
export { createEmptyMessage, reduceChunk, cloneMessage, messageText } from './reducer';
export { parseChunk, classifyChunk, itemFromSseData, type StreamItem, type SkipReason } from './chunks';
export { createSseDecoder, type StreamDecoder } from './sse';
export { assembleFromBytes, applyStreamItem, createDecoder, type StreamFormat } from './assemble';
export { createV1Decoder, createV1LineDecoder, type V1LineDecoder } from './v1DataStream';
export { isLoopbackUrl, parseBaseUrl, serviceUrl, hostLabel, hasUserInfo } from './url';
export { hostScope, isPublicAddress } from './publicAddress';
export { safeExternalUrl, sourcesOf, toolQuery, toolResults } from './sources';
export {
  MAX_ANSWER_BYTES,
  MAX_CHIPS,
  MAX_CONTEXT_CHARS,
  MAX_INPUT_CHARS,
  MAX_QUESTION_CHARS,
  MAX_SELECTION_CHARS,
  MAX_SOURCES,
  clampRetryAfter,
  timerDelay,
} from './limits';
export type { MissingOption, OptionalFeature } from './errorReasons';
export {
  ServiceError,
  abortedError,
  describeError,
  withPartial,
  networkError,
  kindOf,
  optionAtFault,
  type ServiceErrorKind,
  type ServiceErrorInit,
  type ServiceErrorReason,
  type ServiceErrorCode,
  type ReasonOf,
  type ServiceName,
  type NetworkCause,
  type ClientOption,
} from './errors';
export { errorFromStatus, extractDetail, parseRetryAfter, retryTime, AGENT_USES_PER_HOUR, type ErrorTarget } from './httpErrors';
export { keyProblem, detectKeyKind, ADMIN_KEY_PREFIX, ASSISTANT_KEY_PREFIX, type KeyKind, type KeyProblem } from './keys';
export { redact } from './redact';
export * from './types';
