import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { snippetLine } from '../../src/health/core/snippetPlace';

// Code-snippet feedback sits on the code block it is about: the line of the block's opening
// fence whose code contains the snippet (whitespace aside), else nowhere (it counts on the page).

const PAGE = `# Install

Run:

\`\`\`bash
npm install   @acme/relay
relay init --region eu
\`\`\`

<CodeGroup>
  ~~~ts title="send.ts"
  const relay = new Relay({
    key: process.env.KEY });
  ~~~
</CodeGroup>`;

describe('snippetPlace', () => {
  it('finds the block whose code holds the snippet, whitespace normalized', () => {
    assert.equal(snippetLine(PAGE, 'npm install @acme/relay\nrelay init --region eu'), 4);
    assert.equal(snippetLine(PAGE, 'relay init   --region eu'), 4);
    assert.equal(snippetLine(PAGE, 'const relay = new Relay({ key: process.env.KEY });'), 10);
  });

  it('is undefined when no block holds it, when it is only in prose, or when the snippet is empty', () => {
    assert.equal(snippetLine(PAGE, 'pip install relay'), undefined);
    assert.equal(snippetLine(PAGE, 'Run:'), undefined);
    assert.equal(snippetLine(PAGE, '  \n '), undefined);
  });

  it('does not let a shorter fence of the same character close the block, nor a fence of the other', () => {
    const text = ['````md', '```', 'inside', '~~~', '````', '```', 'outside', '```'].join('\n');
    assert.equal(snippetLine(text, '``` inside ~~~'), 0);
    assert.equal(snippetLine(text, 'outside'), 5);
  });

  it('places a snippet in a fixture page', () => {
    const text = readFileSync(join(__dirname, '..', 'fixtures', 'docs-site', 'installation.mdx'), 'utf8');
    const fence = text.split('\n').findIndex((l) => /^\s*(```|~~~)/.test(l));
    assert.ok(fence >= 0, 'the fixture has a code block');
    const lines = text.split('\n');
    let end = fence + 1;
    while (!/^\s*(```|~~~)/.test(lines[end]!)) end++;
    const code = lines.slice(fence + 1, end).join('\n');
    assert.equal(snippetLine(text, code), fence);
  });
});
