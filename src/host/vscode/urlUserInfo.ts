import { hasUserInfo } from '../../api';
import type { DocsAssistantConfig, UserOnlySetting } from './config';

// Which address settings carry a user name or password. None may: a key is set with its own
// command and kept in SecretStorage, the docs site and its MCP server take no credentials, and a
// password in an address ends up in logs and in requests nobody meant to authenticate. Each
// setting's reader refuses such an address (parseBaseUrl, mcpServerUri, imagePolicy,
// docsSiteName); urlSettingsGuard.ts tells the user which. Free of vscode, so it is tested in Node.

type AddressSettings = Pick<DocsAssistantConfig, 'baseUrl' | 'docsSiteUrl' | 'mcpServerUrl' | 'imageOrigins'>;

/** The settings (as named under docsAssistant.) whose address holds user info. */
export function settingsWithUserInfo(cfg: AddressSettings): UserOnlySetting[] {
  const out: UserOnlySetting[] = [];
  if (hasUserInfo(cfg.baseUrl)) out.push('baseUrl');
  if (hasUserInfo(cfg.docsSiteUrl)) out.push('docsSiteUrl');
  if (hasUserInfo(cfg.mcpServerUrl)) out.push('mcpServerUrl');
  if (cfg.imageOrigins.some(hasUserInfo)) out.push('chat.imageOrigins');
  return out;
}
