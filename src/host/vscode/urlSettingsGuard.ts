import * as vscode from 'vscode';
import { CONFIG_SECTION, onDidChangeConfig, readConfig, type UserOnlySetting } from './config';
import type { Log } from './log';
import { settingsWithUserInfo } from './urlUserInfo';

// An address setting with a user name or password in it is not used (urlUserInfo.ts says why,
// and each reader refuses it); this tells the user which setting, once for as long as it stays
// so, and again if it comes back after being fixed. The value itself is never repeated: not in
// the message, not in the log.

export class UrlSettingsGuard implements vscode.Disposable {
  private readonly subscription: vscode.Disposable;
  private warned = new Set<UserOnlySetting>();

  constructor(private readonly log: Log) {
    this.subscription = onDidChangeConfig(() => this.check());
    this.check();
  }

  /** Warns about each setting that newly holds user info. Returns the settings it warned about. */
  check(): string[] {
    const found = settingsWithUserInfo(readConfig());
    this.warned = new Set([...this.warned].filter((s) => found.includes(s)));
    const fresh = found.filter((s) => !this.warned.has(s));
    if (fresh.length === 0) return [];
    for (const s of fresh) this.warned.add(s);
    const names = fresh.map((s) => `${CONFIG_SECTION}.${s}`);
    this.log.warn(`Not used, because the address holds a user name or password: ${names.join(', ')}`);
    const open = vscode.l10n.t('Open User Settings');
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t(
          '{0}: an address in Docs Assistant’s settings must not contain a user name or password, so it is not used until you remove them. Keys are set with their own commands; the docs site and its MCP server take no password.',
          names.join(', '),
        ),
        open,
      )
      .then((pick) => {
        if (pick === open) void vscode.commands.executeCommand('workbench.action.openSettings', names[0]);
      });
    return names;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
