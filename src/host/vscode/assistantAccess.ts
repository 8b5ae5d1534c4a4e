import * as vscode from 'vscode';
import { AssistantClient } from '../../api/assistantClient';
import { ASSISTANT_KEY_PREFIX } from '../../api/keys';
import { hasUserInfo } from '../../api/url';
import type { RequestSettings } from '../../api/types';
import type { ClientProblem } from '../../common/setup';
import { readConfig } from './config';
import { machineFingerprint } from '../core/machineFingerprint';
import type { KeyStore } from './secrets';

// The assistant as the settings and the assistant key make it, for every surface that asks
// (the chat view, the @docs participant, the #docs tool): a client for one question, or what is
// missing and the button that fixes it.

/** A client with the current settings and key, or what is missing, in the user's words. */
export async function assistantClient(keys: KeyStore): Promise<AssistantClient | ClientProblem> {
  const cfg = readConfig();
  if (!cfg.baseUrl) return { problem: vscode.l10n.t('The service address is not set ({0}).', 'docsAssistant.baseUrl'), action: 'openSettings' };
  if (!cfg.domain) return { problem: vscode.l10n.t('The documentation domain is not set ({0}).', 'docsAssistant.domain'), action: 'openSettings' };
  const apiKey = await keys.get('assistant');
  if (!apiKey) return { problem: vscode.l10n.t('The assistant API key is not set. It starts with "{0}".', ASSISTANT_KEY_PREFIX), action: 'setAssistantKey' };
  return new AssistantClient({
    baseUrl: cfg.baseUrl,
    domain: cfg.domain,
    apiKey,
    apiVersion: cfg.assistantApiVersion,
    requestTimeoutMs: cfg.requestTimeoutMs,
    streamIdleTimeoutMs: cfg.streamIdleTimeoutMs,
  });
}

/** What a question carries from the settings, with the path of the file being read. */
export async function requestSettings(currentPath?: string): Promise<RequestSettings> {
  const cfg = readConfig();
  // "machine" is a stable, anonymous id: a hash, never the machine id itself.
  const fp = cfg.fingerprint === 'machine' ? await machineFingerprint(vscode.env.machineId) : cfg.fingerprint;
  const settings: RequestSettings = { fp, retrievalPageSize: cfg.retrievalPageSize, filter: cfg.filter };
  if (currentPath !== undefined) settings.currentPath = currentPath;
  return settings;
}

/**
 * The docs site as the user knows it: the host of docsAssistant.docsSiteUrl, else the domain
 * setting. An address with a user name or password is not used (urlSettingsGuard.ts says so).
 */
export function docsSiteName(): string {
  const cfg = readConfig();
  try {
    if (cfg.docsSiteUrl && !hasUserInfo(cfg.docsSiteUrl)) return new URL(cfg.docsSiteUrl).host;
  } catch {
    // Not a URL: fall back to the domain.
  }
  return cfg.domain || vscode.l10n.t('the documentation');
}
