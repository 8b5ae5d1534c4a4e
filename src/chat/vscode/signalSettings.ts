import * as vscode from 'vscode';

// VS Code's accessibility signals for chat, as far as an extension can follow them. The final API
// has no way to play a signal's sound (playSignal is internal to the workbench), so the sounds of
// accessibility.signals.chatRequestSent and chatResponseReceived are not played for this chat.
// chatRequestSent also has an announcement ("auto" or "off"): the page says "Chat request sent"
// unless it is off. chatResponseReceived has no announcement in VS Code: its Chat reads the answer
// whatever the setting, and so does this one.

/** Whether `accessibility.signals.chatRequestSent` wants the request announced. */
export function requestSentAnnounced(): boolean {
  const value: unknown = vscode.workspace.getConfiguration('accessibility.signals').get('chatRequestSent');
  // An object { sound, announcement } since VS Code 1.85; older settings files may hold a bare "off".
  const announcement = typeof value === 'object' && value !== null ? (value as { announcement?: unknown }).announcement : value;
  return announcement !== 'off' && announcement !== 'never';
}
