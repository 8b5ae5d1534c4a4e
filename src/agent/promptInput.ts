import * as vscode from 'vscode';
import { fromOneLine, toOneLine } from './promptInput.pure';

// The two steps of "Fix Docs with Agent…": the instruction, then the whole prompt as it will be
// sent, editable. VS Code's input box is one line, so line breaks are shown as ⏎ and turned back
// on the way out; the user sees (and can change) every character that goes to the agent.

function blankCheck(value: string): string | undefined {
  return value.trim() === '' ? 'Write an instruction: the agent needs to know what to fix.' : undefined;
}

function ask(options: { title: string; prompt: string; value: string; step: number; totalSteps: number; placeholder?: string }): Promise<string | undefined> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    box.title = options.title;
    box.prompt = options.prompt;
    box.value = options.value;
    box.step = options.step;
    box.totalSteps = options.totalSteps;
    box.placeholder = options.placeholder;
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

export function askInstruction(title: string, step: number, totalSteps: number): Promise<string | undefined> {
  return ask({ title: `Docs Assistant: ${title}`, prompt: 'Describe the fix, e.g. "The timeout default is 30 s, not 10 s; correct it on this page."', value: '', step, totalSteps, placeholder: 'Instruction for the agent' });
}

export async function askFinalPrompt(draft: string, step: number, totalSteps: number): Promise<string | undefined> {
  const value = await ask({
    title: 'Docs Assistant: Review the prompt for the agent',
    prompt: 'This is exactly what the agent gets (⏎ marks a line break). Edit it if needed; Enter sends it, Escape cancels.',
    value: toOneLine(draft),
    step,
    totalSteps,
  });
  return value === undefined ? undefined : fromOneLine(value).trim();
}
