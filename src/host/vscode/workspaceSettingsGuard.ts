import * as vscode from 'vscode';
import { CONFIG_SECTION, USER_ONLY_SETTINGS, onDidChangeConfig, workspaceOverrides, type UserOnlySetting } from './config';
import type { Log } from './log';

// A workspace that tries to set where the keys go (or what the chat may load) is ignored
// (config.ts), and the user is told so once per value: silently ignoring it would leave a writer
// wondering why the repository's settings "do not work", and silently obeying it would send
// their keys to whoever wrote that file.

const SEEN_KEY = 'docsAssistant.ignoredWorkspaceSettings';
const SETTINGS_FILE_MAX_BYTES = 1024 * 1024;

/**
 * VS Code drops a workspace's value of an application-scoped setting before `inspect` can show it,
 * so the workspace's settings files are read for the setting's name. A mention is enough to warn:
 * the value is ignored either way, and the words say so.
 */
async function settingsFileMentions(): Promise<{ setting: UserOnlySetting; value: unknown }[]> {
  const files = (vscode.workspace.workspaceFolders ?? []).map((f) => vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json'));
  const wsFile = vscode.workspace.workspaceFile;
  if (wsFile && wsFile.scheme !== 'untitled') files.push(wsFile);
  const found = new Map<UserOnlySetting, unknown>();
  for (const uri of files) {
    let text: string;
    try {
      const bytes = await vscode.workspace.fs.readFile(uri);
      if (bytes.byteLength > SETTINGS_FILE_MAX_BYTES) continue;
      text = new TextDecoder().decode(bytes);
    } catch {
      continue; // No settings file: nothing to warn about.
    }
    for (const setting of USER_ONLY_SETTINGS) {
      if (!found.has(setting) && text.includes(`"${CONFIG_SECTION}.${setting}"`)) found.set(setting, vscode.workspace.asRelativePath(uri));
    }
  }
  return [...found].map(([setting, file]) => ({ setting, value: `(in ${String(file)})` }));
}

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
    const overrides = [...workspaceOverrides(), ...(await settingsFileMentions())];
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
