// Why a question cannot be asked yet: the sentence the answer shows, and the button that fixes it.
// Made by the host (src/host/vscode/assistantAccess.ts) for every surface that asks: the chat view shows it
// under the answer, the Chat view as the result's error.

export interface ClientProblem {
  /** @userFacing */
  problem: string;
  action: 'setAssistantKey' | 'openSettings';
}
