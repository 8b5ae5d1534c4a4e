import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { AssistantClient } from '../api/assistantClient';
import { ServiceError } from '../api/errors';
import type { SearchFilter } from '../api/types';
import { readConfig } from './config';
import type { KeyStore } from './secrets';

// The assistant as the settings and the assistant key make it, for every surface that asks
// (the chat view, the @docs participant, the #docs tool): a client for one question, or a typed
// error saying what is missing, worded by errorWords.ts like any other failure.

/** What a question carries from the settings. */
export interface RequestSettings {
  fp: string;
  retrievalPageSize: number;
  filter: SearchFilter | null;
  currentPath?: string;
}

/** A client with the current settings and key, or the typed error for what is missing. */
export async function assistantClient(keys: KeyStore): Promise<AssistantClient | ServiceError> {
  const cfg = readConfig();
  if (!cfg.baseUrl) return new ServiceError({ reason: { code: 'baseUrlMissing' }, message: 'The service address is not set.' });
  if (!cfg.domain) return new ServiceError({ reason: { code: 'domainMissing' }, message: 'The documentation domain is not set.' });
  const apiKey = await keys.get('assistant');
  if (!apiKey)
    return new ServiceError({
      reason: { code: 'keyInvalid', keyKind: 'assistant', problem: 'empty' },
      message: 'The assistant API key is not set.',
    });
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
export function requestSettings(currentPath?: string): RequestSettings {
  const cfg = readConfig();
  // "machine" is a stable, anonymous id: a hash, never the machine id itself.
  const fp = cfg.fingerprint === 'machine' ? createHash('sha256').update(`docs-assistant:${vscode.env.machineId}`).digest('hex').slice(0, 32) : cfg.fingerprint;
  const settings: RequestSettings = { fp, retrievalPageSize: cfg.retrievalPageSize, filter: cfg.filter };
  if (currentPath !== undefined) settings.currentPath = currentPath;
  return settings;
}

/** The docs site as the user knows it: the host of docsAssistant.docsSiteUrl, else the domain setting. */
export function docsSiteName(): string {
  const cfg = readConfig();
  try {
    if (cfg.docsSiteUrl) return new URL(cfg.docsSiteUrl).host;
  } catch {
    // Not a URL: fall back to the domain.
  }
  return cfg.domain || vscode.l10n.t('the documentation');
}
