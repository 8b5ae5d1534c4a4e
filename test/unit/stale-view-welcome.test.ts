import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The Docs to Update view's welcomes (package.json viewsWelcome, keyed on
// `docsAssistant.staleDocsState`): each state the checker sets shows exactly one text, its own
// where it means something of its own. A branch without a base is not "no change".

interface Welcome {
  view: string;
  when: string;
  contents: string;
}

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { viewsWelcome: Welcome[] } };
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const welcomes = pkg.contributes.viewsWelcome.filter((w) => w.view === 'docsAssistant.staleDocsView');

/** Whether the when-clause holds for the state: the forms these clauses use (`== x`, `=~ /^(x|y)$/`). */
function holds(when: string, state: string): boolean {
  return when.split('||').some((part) => {
    const eq = /docsAssistant\.staleDocsState == (\w+)/.exec(part);
    if (eq) return eq[1] === state;
    const re = /docsAssistant\.staleDocsState =~ \/(.+)\/$/.exec(part.trim());
    return re ? new RegExp(re[1]!).test(state) : false;
  });
}

/** The text shown for the state; it must be exactly one. */
function textFor(state: string): string {
  const shown = welcomes.filter((w) => holds(w.when, state));
  assert.equal(shown.length, 1, `${state}: ${JSON.stringify(shown)}`);
  const key = /^%(.+)%$/.exec(shown[0]!.contents)?.[1];
  assert.ok(key && nls[key] !== undefined, shown[0]!.contents);
  return nls[key];
}

describe('Docs to Update: the view says why it is empty, one text per state', () => {
  it('a branch without a base has its own words, not "no change"', () => {
    for (const state of ['idle', 'running', 'error', 'noGit', 'noRepository', 'noChange', 'noItems', 'notConfigured', 'empty', 'noBase']) textFor(state);
    const noBase = textFor('noBase');
    assert.notEqual(noBase, textFor('noChange'));
    assert.ok(!/There is no change to check/.test(noBase), noBase);
    assert.match(noBase, /base/);
  });
});
