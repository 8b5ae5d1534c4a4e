import * as vscode from 'vscode';
import { MAX_SELECTION_CHARS, type AssistantApiVersion, type SearchFilter } from '../../api';

// Typed access to the `docsAssistant.*` settings. Read fresh each time: settings can change
// at any moment, and a stale copy is a source of "I changed it but nothing happened".

export interface DocsAssistantConfig {
  /** From user settings only (USER_ONLY_SETTINGS). */
  baseUrl: string;
  /** The documentation site's public address; images from it load in answers. User settings only. */
  docsSiteUrl: string;
  /** The docs site's MCP server (Streamable HTTP), offered to agent mode. User settings only. */
  mcpServerUrl: string;
  /** More origins whose images load in answers without a click. User settings only. */
  imageOrigins: string[];
  projectId: string;
  domain: string;
  retrievalPageSize: number;
  fingerprint: string;
  assistantApiVersion: AssistantApiVersion;
  filter: SearchFilter | null;
  requestTimeoutMs: number;
  streamIdleTimeoutMs: number;
  pollIntervalMs: number;
  /** Where a job's pull request opens, as set; the agent reads it (src/agent/core/pullRequestLink.ts). */
  openPullRequestIn: string;
  maxSelectionChars: number;
}

export const CONFIG_SECTION = 'docsAssistant';

/**
 * Settings that decide where a key is sent or what the chat may load from the network. They are
 * read from the user's own settings only (user, remote, default), never from a workspace: a
 * repository cloned from anywhere can carry a `.vscode/settings.json` that points the keys at its
 * own server. package.json also declares them `application`-scoped, so VS Code itself ignores a
 * workspace value; reading them here with `inspect` holds even where a scope is not honoured.
 */
export const USER_ONLY_SETTINGS = ['baseUrl', 'docsSiteUrl', 'mcpServerUrl', 'chat.imageOrigins'] as const;
export type UserOnlySetting = (typeof USER_ONLY_SETTINGS)[number];

function userValue<T>(c: vscode.WorkspaceConfiguration, key: UserOnlySetting): T | undefined {
  const i = c.inspect<T>(key);
  return i?.globalValue ?? i?.defaultValue;
}

/** User-only settings that a workspace or folder tries to set, with the value it sets (ignored). */
export function workspaceOverrides(): { setting: UserOnlySetting; value: unknown }[] {
  const c = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const out: { setting: UserOnlySetting; value: unknown }[] = [];
  for (const setting of USER_ONLY_SETTINGS) {
    const i = c.inspect(setting);
    const value = i?.workspaceFolderValue ?? i?.workspaceValue;
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(i?.globalValue ?? i?.defaultValue)) out.push({ setting, value });
  }
  return out;
}

function clamp(n: number, lo: number, hi: number, fallback: number): number {
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : fallback;
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, 50) : [];
}

export function readConfig(): DocsAssistantConfig {
  const c = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const filter = c.get<unknown>('filter');
  return {
    baseUrl: String(userValue<string>(c, 'baseUrl') ?? '')
      .trim()
      .replace(/\/+$/, ''),
    docsSiteUrl: String(userValue<string>(c, 'docsSiteUrl') ?? '').trim(),
    mcpServerUrl: String(userValue<string>(c, 'mcpServerUrl') ?? '').trim(),
    imageOrigins: stringList(userValue<unknown>(c, 'chat.imageOrigins')),
    projectId: (c.get<string>('projectId') ?? '').trim(),
    domain: (c.get<string>('domain') ?? '').trim(),
    retrievalPageSize: Math.round(clamp(Number(c.get('retrievalPageSize', 5)), 1, 50, 5)),
    fingerprint: (c.get<string>('fingerprint') ?? '').trim() || 'anonymous',
    assistantApiVersion: c.get<string>('assistantApiVersion') === 'v1' ? 'v1' : 'v2',
    filter: filter && typeof filter === 'object' && !Array.isArray(filter) ? (filter as SearchFilter) : null,
    requestTimeoutMs: clamp(Number(c.get('requestTimeoutSeconds', 30)), 1, 600, 30) * 1000,
    streamIdleTimeoutMs: clamp(Number(c.get('streamIdleTimeoutSeconds', 60)), 1, 3600, 60) * 1000,
    pollIntervalMs: clamp(Number(c.get('agent.pollIntervalSeconds', 5)), 1, 60, 5) * 1000,
    openPullRequestIn: String(c.get('agent.openPullRequestIn') ?? 'auto'),
    maxSelectionChars: Math.round(clamp(Number(c.get('chat.maxSelectionChars', 20000)), 200, MAX_SELECTION_CHARS, 20000)),
  };
}

/** Fires when any `docsAssistant.*` setting changes. */
export function onDidChangeConfig(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(CONFIG_SECTION)) listener();
  });
}
