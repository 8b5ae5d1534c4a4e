import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accessibilityHelpText, keyLabel, type ContributedKeybinding } from '../../src/chat/core/accessibilityHelp';

// Issue 29: Accessibility Help (Alt+F1 in the chat) lists the keys, in the chat and in the Agent
// Jobs tree. The extension's shortcuts come from package.json's contributes.keybindings, the list
// VS Code binds; this holds the document to every one of them, under its command's title.

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  contributes: { keybindings: ContributedKeybinding[]; commands: { command: string; title: string; category?: string }[] };
};
const nls = JSON.parse(readFileSync(join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
const text = (s: string): string => nls[/^%(.+)%$/.exec(s)?.[1] ?? ''] ?? s;
/** A command's title as the palette shows it, in English. */
function titleOf(command: string): string {
  const c = pkg.contributes.commands.find((x) => x.command === command)!;
  return c.category ? `${text(c.category)}: ${text(c.title)}` : text(c.title);
}

describe('chat: Accessibility Help', () => {
  const help = accessibilityHelpText(pkg.contributes.keybindings, titleOf);
  const section = (heading: string): string => help.slice(help.indexOf(heading)).split('\n\n')[0]!;

  it('lists every keybinding of package.json, its keys with its command’s title', () => {
    assert.ok(pkg.contributes.keybindings.length >= 4);
    for (const kb of pkg.contributes.keybindings) {
      const line = `${keyLabel(kb.key)}${kb.mac && kb.mac !== kb.key ? ` (macOS: ${keyLabel(kb.mac)})` : ''}: ${titleOf(kb.command)}`;
      assert.ok(help.includes(`- ${line}\n`), `${line} is not in:\n${help}`);
    }
  });

  it('puts the chat’s own shortcuts (the Accessible View, this help) under the chat', () => {
    const chat = section('In the chat');
    assert.match(chat, /- Alt\+F2: Docs Assistant: Open Answer in Accessible View/);
    assert.match(chat, /- Alt\+F1: Docs Assistant: Accessibility Help/);
    assert.match(chat, /Enter: send the question/);
    // The keys between answers (turnNavigation.ts), as in VS Code's own Chat.
    assert.match(chat, /Ctrl\+Up \(macOS: Cmd\+Up\): from the input box, the last answer/);
    assert.match(chat, /Ctrl\+Down \(macOS: Cmd\+Down\): the next answer/);
    assert.doesNotMatch(chat, /Ctrl\+Alt\+D/);
    assert.match(section('In an editor'), /- Ctrl\+Alt\+D \(macOS: Cmd\+Alt\+D\): Docs Assistant: Ask Docs About Selection/);
  });

  it('a shortcut bound outside the chat, the tree and editors is listed under Anywhere', () => {
    const extra: ContributedKeybinding = { command: 'docsAssistant.chat.focus', key: 'ctrl+alt+j', when: '!terminalFocus' };
    const withExtra = accessibilityHelpText([...pkg.contributes.keybindings, extra], titleOf);
    const anywhere = withExtra.slice(withExtra.indexOf('Anywhere:')).split('\n\n')[0]!;
    assert.match(anywhere, /- Ctrl\+Alt\+J: Docs Assistant: Ask Docs$/m);
    assert.doesNotMatch(withExtra.slice(withExtra.indexOf('In an editor:')).split('\n\n')[0]!, /Ctrl\+Alt\+J/);
  });

  it('says how the Agent Jobs tree is used by keyboard', () => {
    const tree = section('In the Agent Jobs tree');
    assert.match(tree, /Enter: open/);
    assert.match(tree, /Shift\+F10 or the context menu key/);
  });

  it('writes keys as people do', () => {
    assert.equal(keyLabel('ctrl+alt+d'), 'Ctrl+Alt+D');
    assert.equal(keyLabel('alt+f2'), 'Alt+F2');
    assert.equal(keyLabel('cmd+enter'), 'Cmd+Enter');
  });
});
