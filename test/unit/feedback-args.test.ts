import * as assert from 'node:assert/strict';
import { isAskAboutFeedbackArgs } from '../../src/common/commandArgs';

// Issue 31: Ask Docs About This Feedback hands a reader's comment to the chat through a command
// (features never import each other). Anyone can run that command with anything, so its
// arguments are checked here: plain strings, bounded, and a path that cannot climb or be absolute.

const ok = { path: 'getting-started.md', page: '/getting-started', text: 'The install step fails on Windows.' };

describe('command arguments: Ask Docs About This Feedback', () => {
  it('takes a page, its workspace file and the reader’s words', () => {
    assert.ok(isAskAboutFeedbackArgs(ok));
    assert.ok(isAskAboutFeedbackArgs({ ...ok, path: 'guides/webhooks.mdx' }), 'a file in a folder');
    assert.ok(isAskAboutFeedbackArgs({ ...ok, path: undefined }), 'a page that maps to no file');
  });

  it('refuses what is not plain, bounded text', () => {
    for (const bad of [undefined, null, 'text', 42, { ...ok, text: 7 }, { ...ok, text: '' }, { ...ok, text: ' \n ' }, { ...ok, page: ['/a'] }])
      assert.equal(isAskAboutFeedbackArgs(bad), false, JSON.stringify(bad));
    assert.equal(isAskAboutFeedbackArgs({ ...ok, text: 'x'.repeat(20_001) }), false, 'a comment past the chat’s longest selection');
    assert.equal(isAskAboutFeedbackArgs({ ...ok, page: `/${'p'.repeat(2048)}` }), false, 'a page past 2,048 characters');
    assert.equal(isAskAboutFeedbackArgs({ ...ok, page: 'getting-started' }), false, 'a page is a path on the site');
  });

  it('refuses a file path that is absolute, climbs, or hides characters', () => {
    for (const path of [
      '/etc/passwd',
      '../secrets.md',
      'docs/../../x.md',
      'C:\\x.md',
      'a\\..\\b.md',
      'file:///etc/passwd',
      'a\u202e.md',
      'a\nb.md',
      '',
      './x.md',
    ])
      assert.equal(isAskAboutFeedbackArgs({ ...ok, path }), false, JSON.stringify(path));
  });
});
