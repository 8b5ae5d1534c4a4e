import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { FIX_DOCS_TOOL, MAX_INSTRUCTION_CHARS, MAX_PASSAGE_CHARS, MAX_PATH_CHARS, MAX_TITLE_CHARS } from '../../src/participant/core/fixDocsTool';

// The "Docs writer" set-up for agent mode (issue 30 §4): an agent, instructions and a prompt file,
// contributed through `chatAgents`, `chatInstructions` and `chatPromptFiles`. Held here to what
// VS Code 1.139.1 ships (src/vs/workbench/contrib/chat/common/promptSyntax/chatPromptFilesContribution.ts:
// an entry is `{ path }` inside the extension, with optional `when` and `sessionTypes`; `name`
// and `description` there are deprecated in favour of the file's own front matter; the file's
// type is the point's: agent, instructions, prompt). Tools are named as 1.139 names an
// extension's tool: `<publisher>.<name>/<toolReferenceName>`, so each reference must be one of
// our own tools. VS Code 1.100 does not know these points and ignores them.

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`.toLowerCase();
const tools = pkg.contributes.languageModelTools as {
  name: string;
  toolReferenceName: string;
  inputSchema: { properties: Record<string, { maxLength?: number }> };
}[];

const POINTS = { chatAgents: '.agent.md', chatInstructions: '.instructions.md', chatPromptFiles: '.prompt.md' } as const;
/** The front matter keys 1.139 reads (its PromptHeaderAttributes), of those these files use. */
const KNOWN_KEYS = new Set(['name', 'description', 'argument-hint', 'agent', 'tools', 'applyTo', 'model']);

function frontMatter(text: string): { header: Record<string, string>; body: string } {
  const m = /^---\n([^]*?)\n---\n([^]*)$/.exec(text);
  assert.ok(m, 'the file starts with a front matter block');
  const header: Record<string, string> = {};
  for (const line of m[1]!.split('\n')) {
    const kv = /^([\w-]+):\s*(.*)$/.exec(line);
    assert.ok(kv, `a front matter line is "key: value": ${line}`);
    header[kv[1]!] = kv[2]!;
  }
  return { header, body: m[2]! };
}

describe('the Docs writer set-up for agent mode (chatAgents, chatInstructions, chatPromptFiles)', () => {
  for (const [point, suffix] of Object.entries(POINTS)) {
    it(`${point}: each entry is a ${suffix} file inside the extension, with a name and description of its own`, () => {
      const entries = pkg.contributes[point] as Record<string, unknown>[] | undefined;
      assert.ok(entries?.length, `package.json contributes ${point}`);
      for (const entry of entries) {
        assert.deepEqual(Object.keys(entry), ['path'], 'only `path`: `name` and `description` belong in the file (deprecated in the entry in 1.139)');
        const file = resolve(ROOT, entry.path as string);
        assert.ok(!relative(ROOT, file).startsWith('..'), 'inside the extension');
        assert.ok(file.endsWith(suffix), `${entry.path} is a ${suffix} file`);
        assert.ok(existsSync(file), `${entry.path} exists`);
        const { header, body } = frontMatter(readFileSync(file, 'utf8'));
        assert.ok(header.name && header.description, 'name and description in the front matter');
        assert.deepEqual(
          Object.keys(header).filter((k) => !KNOWN_KEYS.has(k)),
          [],
          'only front matter VS Code reads',
        );
        assert.ok(body.trim().length > 0);
      }
    });
  }

  it('names #docs, the docs site’s MCP tools and #fixDocs, each tool as one of ours', () => {
    for (const [point] of Object.entries(POINTS)) {
      for (const entry of pkg.contributes[point] as { path: string }[]) {
        const text = readFileSync(resolve(ROOT, entry.path), 'utf8');
        const refs = [...text.matchAll(/#tool:([\w.-]+)\/(\w+)/g)].map((m) => [m[1]!, m[2]!] as const);
        assert.ok(refs.length > 0, `${entry.path} references tools`);
        for (const [extension, ref] of refs) {
          assert.equal(extension, EXTENSION_ID, `${entry.path}: #tool:${extension}/${ref} is this extension's`);
          assert.ok(
            tools.some((t) => t.toolReferenceName === ref),
            `${entry.path}: #tool:…/${ref} is a tool package.json contributes`,
          );
        }
        const named = new Set(refs.map(([, r]) => r));
        assert.ok(named.has('docs') && named.has('fixDocs'), `${entry.path} names #docs and #fixDocs`);
        assert.match(text, /MCP/, `${entry.path} names the docs site's MCP tools`);
      }
    }
  });

  it('#fixDocs is declared with the bounds its input is checked against', () => {
    const tool = tools.find((t) => t.name === FIX_DOCS_TOOL);
    assert.ok(tool, `${FIX_DOCS_TOOL} is declared`);
    assert.equal(tool.toolReferenceName, 'fixDocs');
    const p = tool.inputSchema.properties;
    assert.deepEqual(
      [p.instruction?.maxLength, p.passage?.maxLength, p.file?.maxLength, p.title?.maxLength],
      [MAX_INSTRUCTION_CHARS, MAX_PASSAGE_CHARS, MAX_PATH_CHARS, MAX_TITLE_CHARS],
    );
  });
});
