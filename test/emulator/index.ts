// The local service emulator: a real HTTP server on 127.0.0.1 that behaves like the documentation
// agent and assistant service (see /work/shared/spec), for tests, the e2e suite and `npm start`.
// Usage: `const emu = await startEmulator({ port: 0 }); … await emu.close();`

export { DEMO, type EmulatorOptions, type RecordedRequest, type RunningEmulator } from './config';
export { startEmulator } from './server';
export { AGENT_FAULTS, FAULT_HEADER, HUGE_RETRY_AFTER, RESPONSE_FAULTS, STREAM_FAULTS } from './faults';
export { ANALYTICS_FAULTS, ANALYTICS_RETRY_AFTER_S, type AnalyticsControl, type AnalyticsFault } from './analytics';
export { SEARCH_FAULTS, SEARCH_RETRY_AFTER_S, type SearchControl, type SearchFault } from './search';
export { DOCS_SITE_ORIGIN, SNIPPET_CODE } from './analyticsData';
export { HOSTILE_SOURCES, HOSTILE_TOOL_RESULTS } from './streams';
export { cloneDocsWorkspace, createDocsRepository, DOCS_REPOSITORY, type DocsRepo, type FileChange } from './docsRepo';
