import * as vscode from 'vscode';
import { hasUserInfo } from '../../api';
import { readConfig } from '../../host/vscode/config';

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
