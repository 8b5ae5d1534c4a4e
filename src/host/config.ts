import * as vscode from 'vscode';
import type { AssistantApiVersion, SearchFilter } from '../api/types';

// Typed access to the `docsAssistant.*` settings. Read fresh each time: settings can change
// at any moment, and a stale copy is a source of "I changed it but nothing happened".

export interface DocsAssistantConfig {
  baseUrl: string;
  projectId: string;
  domain: string;
  retrievalPageSize: number;
  fingerprint: string;
  assistantApiVersion: AssistantApiVersion;
  filter: SearchFilter | null;
  requestTimeoutMs: number;
  streamIdleTimeoutMs: number;
  pollIntervalMs: number;
  maxSelectionChars: number;
}

export const CONFIG_SECTION = 'docsAssistant';

function clamp(n: number, lo: number, hi: number, fallback: number): number {
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : fallback;
}

export function readConfig(): DocsAssistantConfig {
  const c = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const filter = c.get<unknown>('filter');
  return {
    baseUrl: (c.get<string>('baseUrl') ?? '').trim().replace(/\/+$/, ''),
    projectId: (c.get<string>('projectId') ?? '').trim(),
    domain: (c.get<string>('domain') ?? '').trim(),
    retrievalPageSize: Math.round(clamp(Number(c.get('retrievalPageSize', 5)), 1, 50, 5)),
    fingerprint: (c.get<string>('fingerprint') ?? '').trim() || 'anonymous',
    assistantApiVersion: c.get<string>('assistantApiVersion') === 'v1' ? 'v1' : 'v2',
    filter: filter && typeof filter === 'object' && !Array.isArray(filter) ? (filter as SearchFilter) : null,
    requestTimeoutMs: clamp(Number(c.get('requestTimeoutSeconds', 30)), 1, 600, 30) * 1000,
    streamIdleTimeoutMs: clamp(Number(c.get('streamIdleTimeoutSeconds', 60)), 1, 3600, 60) * 1000,
    pollIntervalMs: clamp(Number(c.get('agent.pollIntervalSeconds', 5)), 1, 60, 5) * 1000,
    maxSelectionChars: Math.round(clamp(Number(c.get('chat.maxSelectionChars', 20000)), 200, 200000, 20000)),
  };
}

/** Fires when any `docsAssistant.*` setting changes. */
export function onDidChangeConfig(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(CONFIG_SECTION)) listener();
  });
}
