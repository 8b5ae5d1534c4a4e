import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEMO } from '../emulator';
import { closedStacks } from './stack';
import { browserStorageDumps } from './workbench';

// After the agent and chat suites (mocha runs the files in name order, in one process): look for
// both keys in everything the extension and VS Code wrote. Only VS Code's SecretStorage may hold
// them, and in code-server it keeps them encrypted in the browser, so a plain key found anywhere
// is a leak: global/workspace state (IndexedDB in code-server, state.vscdb on the desktop), the Docs Assistant log, settings.json, the
// webview's state, every browser store, and the emulator's request log (which never records the
// Authorization header, so a key found there was sent in a body, a URL or another header).

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) {
      if (name === 'workspace') continue; // the copied sample docs, not something VS Code wrote
      yield* files(path);
    } else if (st.isFile() && st.size < 50_000_000 && !name.endsWith('.sock')) yield path;
  }
}

describe('e2e: no key is written anywhere', function () {
  const keys = { admin: DEMO.adminKey, assistant: DEMO.assistantKey, wrong: 'svc_dsc_wrong_0000000000000000000000' };

  it('finds neither key in VS Code’s files, the browser’s storage or the emulator’s request log', function () {
    assert.ok(closedStacks.length >= 2, `run the whole e2e suite: this scan needs the agent and chat suites' data (${closedStacks.length} stacks closed)`);
    const hits: string[] = [];
    let scanned = 0;
    let bytes = 0;
    const logs: string[] = [];
    // Positive controls: what the suites stored in globalState (the agent job) and workspaceState
    // (the conversation) must be found the same way a key would be.
    const controls = {
      'the agent job in globalState': 'The connect timeout default is 30 s',
      'the conversation in workspaceState': 'How do I configure the connect timeout?',
    };
    const seen = new Set<string>();
    const check = (where: string, text: string) => {
      for (const [name, key] of Object.entries(keys)) if (text.includes(key)) hits.push(`${name} key in ${where}`);
    };
    for (const stack of closedStacks) {
      for (const path of files(stack.userDataDir)) {
        const buf = readFileSync(path);
        scanned++;
        bytes += buf.length;
        // latin1 keeps every byte, so a key inside SQLite pages or binary files is found too.
        const text = buf.toString('latin1');
        check(relative(stack.userDataDir, path), text);
        for (const [what, needle] of Object.entries(controls)) if (text.includes(needle)) seen.add(what);
        if (/Docs Assistant\.log$/.test(path)) logs.push(buf.toString('utf8'));
      }
      check('the emulator request log', stack.requestLog);
    }
    browserStorageDumps.forEach((d, i) => {
      check(`browser storage of workbench ${i + 1}`, d);
      // In code-server, globalState and workspaceState live in the browser's IndexedDB.
      for (const [what, needle] of Object.entries(controls)) if (d.includes(needle)) seen.add(what);
    });
    console.log(
      `      scanned ${scanned} files (${(bytes / 1e6).toFixed(1)} MB), ${browserStorageDumps.length} browser storage dumps (${browserStorageDumps.reduce((n, d) => n + d.length, 0)} chars), ${closedStacks.length} emulator request logs`,
    );
    // The scan must have seen what matters, or it proves nothing.
    assert.deepEqual([...seen].sort(), Object.keys(controls).sort(), 'VS Code’s state stores (server files or browser IndexedDB) were found and read');
    assert.ok(logs.length >= 1 && logs.some((l) => /Stored the demo/.test(l)), 'the Docs Assistant output log was found and scanned');
    assert.ok(
      browserStorageDumps.some((d) => d.includes('secrets.provider')),
      'the browser storage that holds VS Code’s (encrypted) secrets was scanned',
    );
    assert.ok(
      closedStacks.some((s) => s.requestLog.includes('/assistant/')) && closedStacks.some((s) => s.requestLog.includes('/job')),
      'both request logs were scanned',
    );
    assert.deepEqual(hits, []);
  });
});
