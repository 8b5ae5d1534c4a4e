import * as assert from 'node:assert/strict';
import { refuseTarget, type ReadableScope } from '../../src/common/commandArgs';

// Issue 27, item 2: any extension, or a `command:` link, can run a command with any arguments. A
// command run with a document's URI reads it only when it is inside a workspace folder and open
// in an editor, where the user sees it; anything else is refused with a message that names it.

const WORKSPACE = 'file:///home/u/project';
const OPEN_DOC = `${WORKSPACE}/docs/getting-started.md`;
const scope: ReadableScope = {
  folders: [WORKSPACE, 'file:///home/u/second'],
  openInEditors: [OPEN_DOC, 'untitled:Untitled-1', 'file:///home/u/.ssh/id_ed25519', 'file:///home/u/second/b.md'],
};

describe('command arguments: which documents a command run with arguments may read', () => {
  it('reads a document inside a workspace folder that is open in an editor, and an open untitled one', () => {
    assert.equal(refuseTarget(OPEN_DOC, scope), undefined);
    assert.equal(refuseTarget('file:///home/u/second/b.md', scope), undefined, 'any of the folders');
    assert.equal(refuseTarget('untitled:Untitled-1', scope), undefined, 'an untitled document has no place on disk; it is read only when open');
  });

  it('refuses a file outside every workspace folder, naming it, even when it is open in an editor', () => {
    const key = 'file:///home/u/.ssh/id_ed25519';
    const message = refuseTarget(key, scope);
    assert.ok(message, 'refused');
    assert.ok(message.includes(key), message);
    assert.match(message, /outside this workspace/);
    for (const outside of ['file:///etc/passwd', 'file:///home/u/project-secrets/key.txt', 'file:///home/u/projectX/a.md', WORKSPACE])
      assert.ok(refuseTarget(outside, { ...scope, openInEditors: [...scope.openInEditors, outside] })?.includes(outside), outside);
  });

  it('refuses a path that climbs out of a folder, however it is spelled', () => {
    for (const climbing of [
      `${WORKSPACE}/../.ssh/id_ed25519`,
      `${WORKSPACE}/docs/%2e%2e/%2E%2E/../.ssh/id_ed25519`,
      `${WORKSPACE}/./docs/getting-started.md`,
      `${WORKSPACE}/..%2F..%2Fetc/passwd`,
      `${WORKSPACE}/..%5C..%5Cetc/passwd`,
      `${WORKSPACE}/%E0%A4%A`,
      `${OPEN_DOC}?x=1`,
      `${OPEN_DOC}#L1`,
    ]) {
      const open = { ...scope, openInEditors: [...scope.openInEditors, climbing] };
      assert.match(refuseTarget(climbing, open) ?? '', /outside this workspace/, climbing);
    }
  });

  it('refuses a workspace document that is not open in an editor, naming it', () => {
    const closed = `${WORKSPACE}/docs/private-notes.md`;
    const message = refuseTarget(closed, scope);
    assert.ok(message?.includes(closed), message);
    assert.match(message!, /not open in an editor/);
    assert.match(refuseTarget('untitled:Untitled-2', scope) ?? '', /not open in an editor/);
  });

  it('refuses everything when the window has no folder', () => {
    assert.match(refuseTarget(OPEN_DOC, { folders: [], openInEditors: [OPEN_DOC] }) ?? '', /outside this workspace/);
  });

  it('names a very long URI by its start, not all of it', () => {
    const long = `file:///tmp/${'a'.repeat(5000)}`;
    const message = refuseTarget(long, scope)!;
    assert.ok(message.includes(long.slice(0, 200)), 'named');
    assert.ok(message.length < 800, `${message.length} characters`);
  });
});
