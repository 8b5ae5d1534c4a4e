import * as vscode from 'vscode';
import { RedactingLog, type SecretSource } from '../core/redactingLog';

// One output channel for the extension. Every line goes through RedactingLog (redactingLog.ts),
// which hides key shapes, URL user info and the current keys by value (from the key store), so
// that a key can never reach the log even by accident.

export class Log extends RedactingLog implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;

  constructor(secrets: SecretSource, name = 'Docs Assistant') {
    const channel = vscode.window.createOutputChannel(name, { log: true });
    super(channel, secrets);
    this.channel = channel;
  }

  dispose(): void {
    this.channel.dispose();
  }
}
