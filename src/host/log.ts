import * as vscode from 'vscode';
import { redact } from '../api/redact';

// One output channel for the extension. Every line goes through `redact`, and the current keys
// are registered as known secrets, so that a key can never reach the log even by accident.

export class Log implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;
  private readonly secrets = new Set<string>();

  constructor(name = 'Docs Assistant') {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  /** Registers a secret that must never be written out, even if some text contains it whole. */
  addSecret(secret: string | undefined): void {
    if (secret) this.secrets.add(secret);
  }

  private clean(message: string): string {
    return redact(message, [...this.secrets]);
  }

  info(message: string): void {
    this.channel.info(this.clean(message));
  }

  warn(message: string): void {
    this.channel.warn(this.clean(message));
  }

  error(message: string, err?: unknown): void {
    const detail = err instanceof Error ? `${err.name}: ${err.message}` : err === undefined ? '' : String(err);
    this.channel.error(this.clean(detail ? `${message} (${detail})` : message));
  }

  dispose(): void {
    this.channel.dispose();
  }
}
