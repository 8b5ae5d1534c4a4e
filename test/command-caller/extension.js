// TEST-ONLY extension, never shipped (.vscodeignore ships only the files it names; this folder is
// not one of them). test/e2e/command-args.e2e.ts packs it and installs it into code-server next to
// Docs Assistant. It stands for any other extension, or a `command:` link: it runs a docsAssistant
// command with whatever arguments it is given, here typed into its input box as JSON:
//   {"command": "docsAssistant.chat.askAboutSelection", "args": [{"uri": "file:///…", …}]}
// Plain CommonJS so that it needs no build.
'use strict';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS, so that it needs no build
const vscode = require('vscode');

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand('docsAssistantTest.runCommand', async () => {
      const text = await vscode.window.showInputBox({
        title: 'Another extension (test)',
        prompt: 'JSON: {"command": "docsAssistant.…", "args": […]}',
        ignoreFocusOut: true,
      });
      if (!text) return;
      const { command, args } = JSON.parse(text);
      if (typeof command !== 'string' || !command.startsWith('docsAssistant.')) throw new Error('This test extension runs only docsAssistant commands.');
      await vscode.commands.executeCommand(command, ...(Array.isArray(args) ? args : []));
    }),
  );
};
