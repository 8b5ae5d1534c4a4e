import * as vscode from 'vscode';

// The first step of "Fix Docs with Agent…" and "Send Follow-up…": a one-line box for the
// instruction. Its value is never sent as it is: it goes into the review document
// (reviewDocument.ts), where the user sees, and can change, every character the agent gets.
// So nothing here converts line breaks or marks them.

function blankCheck(value: string): string | undefined {
  return value.trim() === '' ? vscode.l10n.t('Write an instruction: the agent needs to know what to fix.') : undefined;
}

/** `title` is in the display language already; the box's title puts the extension's name before it. */
export function askInstruction(title: string, step: number, totalSteps: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    box.title = vscode.l10n.t('Docs Assistant: {0}', title);
    box.prompt = vscode.l10n.t('Describe the fix, e.g. "The timeout default is 30 s, not 10 s; correct it on this page." You review the whole prompt next.');
    box.placeholder = vscode.l10n.t('Instruction for the agent');
    box.step = step;
    box.totalSteps = totalSteps;
    box.ignoreFocusOut = true;
    let done = false;
    const finish = (v: string | undefined) => {
      if (done) return;
      done = true;
      resolve(v);
      box.dispose();
    };
    box.onDidChangeValue((v) => (box.validationMessage = blankCheck(v)));
    box.onDidAccept(() => {
      const problem = blankCheck(box.value);
      if (problem) box.validationMessage = problem;
      else finish(box.value);
    });
    box.onDidHide(() => finish(undefined));
    box.show();
  });
}
