import * as vscode from 'vscode';
import { CONFIG_SECTION, onDidChangeConfig, workspaceOverrides } from './config';
import type { Log } from './log';

// A workspace that tries to set where the keys go (or what the chat may load) is ignored
// (config.ts), and the user is told so once per value: silently ignoring it would leave a writer
// wondering why the repository's settings "do not work", and silently obeying it would send
// their keys to whoever wrote that file.

const SEEN_KEY = 'docsAssistant.ignoredWorkspaceSettings';

export class WorkspaceSettingsGuard implements vscode.Disposable {
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly workspaceState: vscode.Memento,
    private readonly log: Log,
  ) {
    this.subscription = onDidChangeConfig(() => void this.check());
    void this.check();
  }

  /** Warns about each ignored value once per workspace. Returns the settings it warned about. */
  async check(): Promise<string[]> {
    const overrides = workspaceOverrides();
    if (overrides.length === 0) return [];
    const seen = new Set(this.workspaceState.get<string[]>(SEEN_KEY) ?? []);
    const fresh = overrides.filter((o) => !seen.has(`${o.setting}=${JSON.stringify(o.value)}`));
    if (fresh.length === 0) return [];
    for (const o of fresh) seen.add(`${o.setting}=${JSON.stringify(o.value)}`);
    await Promise.resolve(this.workspaceState.update(SEEN_KEY, [...seen].slice(-50))).catch(() => undefined);
    const names = fresh.map((o) => `${CONFIG_SECTION}.${o.setting}`);
    const values = fresh.map((o) => `${CONFIG_SECTION}.${o.setting} = ${JSON.stringify(o.value).slice(0, 120)}`).join('; ');
    this.log.warn(`Ignored workspace settings (only user settings may set them): ${values}`);
    const open = vscode.l10n.t('Open User Settings');
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t(
          "This workspace's settings set {0}. Docs Assistant ignores them: your keys go only to the service address in your user settings, and images load only from origins you allowed there.",
          names.join(', '),
        ),
        open,
      )
      .then((pick) => {
        if (pick === open) void vscode.commands.executeCommand('workbench.action.openSettings', `${CONFIG_SECTION}.${fresh[0]!.setting}`);
      });
    return names;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
