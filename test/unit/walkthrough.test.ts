import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The getting-started walkthrough (contributes.walkthroughs) is only data: VS Code shows a step
// whose button names an unknown command, whose media is missing or whose completion event can
// never fire without a word. This checks each of those against the rest of the manifest and the
// sources. test/e2e/walkthrough.e2e.ts checks that a real VS Code renders it.

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const nlsPath = join(ROOT, 'package.nls.json');
const nls: Record<string, string> = existsSync(nlsPath) ? JSON.parse(readFileSync(nlsPath, 'utf8')) : {};
/** A manifest string, with a `%key%` placeholder replaced by its English text from package.nls.json. */
const text = (s: string): string => {
  const key = /^%(.+)%$/.exec(s)?.[1];
  if (key === undefined) return s;
  assert.ok(key in nls, `package.nls.json has no "${key}"`);
  return nls[key]!;
};

interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string; svg?: string; altText?: string };
  completionEvents?: string[];
}
const c = pkg.contributes;
const walkthrough = c.walkthroughs?.[0] as { id: string; title: string; description: string; steps: Step[] } | undefined;
const declaredCommands = new Set<string>(c.commands.map((x: { command: string }) => x.command));
const settings = new Set(Object.keys(c.configuration.properties));
const viewIds = new Set(
  Object.values(c.views as Record<string, { id: string }[]>)
    .flat()
    .map((v) => v.id),
);

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (name.endsWith('.ts')) yield p;
  }
}
/**
 * Context keys the extension sets: `setContext` with a literal `docsAssistant.*` key, or the
 * agent feature's `set('<key>', …)` helper, which prefixes `docsAssistant.`.
 */
const contextKeys = new Set<string>();
for (const f of sources(join(ROOT, 'src'))) {
  const src = readFileSync(f, 'utf8');
  for (const m of src.matchAll(/'setContext',\s*['"`](docsAssistant\.[\w.]+)['"`]/g)) contextKeys.add(m[1]!);
  if (/setContext', `docsAssistant\.\$\{k\}`/.test(src)) for (const m of src.matchAll(/\bset\('(\w+)'/g)) contextKeys.add(`docsAssistant.${m[1]}`);
}

describe('the getting-started walkthrough (package.json)', function () {
  it('is one walkthrough, "Get started with Docs Assistant", with the five steps in order', function () {
    assert.equal(c.walkthroughs?.length, 1);
    assert.equal(text(walkthrough!.title), 'Get started with Docs Assistant');
    assert.ok(text(walkthrough!.description).length > 20);
    assert.deepEqual(
      walkthrough!.steps.map((s) => s.id),
      ['configure', 'assistantKey', 'adminKey', 'firstQuestion', 'firstJob'],
    );
  });

  it('each step has one button, and it runs a declared command', function () {
    const buttons = walkthrough!.steps.map((s) => {
      const links = [...text(s.description).matchAll(/\]\(command:([\w.]+)\)/g)].map((m) => m[1]!);
      assert.equal(links.length, 1, `step ${s.id} has ${links.length} command links`);
      assert.ok(declaredCommands.has(links[0]!), `step ${s.id} runs ${links[0]}, which contributes.commands does not declare`);
      return links[0];
    });
    assert.deepEqual(buttons, [
      'docsAssistant.configure',
      'docsAssistant.setAssistantKey',
      'docsAssistant.setAdminKey',
      'docsAssistant.chat.focus',
      'docsAssistant.agent.fixDocs',
    ]);
  });

  it('each step has a title and a markdown page under media/walkthrough/ that exists and says something', function () {
    for (const s of walkthrough!.steps) {
      assert.ok(text(s.title).length > 5, `step ${s.id} has a title`);
      const md = s.media.markdown;
      assert.match(md ?? '', /^media\/walkthrough\/[\w-]+\.md$/, `step ${s.id}'s media is a markdown page under media/walkthrough/`);
      const body = readFileSync(join(ROOT, md!), 'utf8');
      assert.match(body, /^# \S/, `${md} starts with a heading`);
      assert.ok(body.length > 200, `${md} says something`);
    }
  });

  it('each completion event can fire: its command, context key, setting or view exists', function () {
    for (const s of walkthrough!.steps) {
      assert.ok(s.completionEvents?.length, `step ${s.id} says when it is done`);
      for (const e of s.completionEvents!) {
        const [kind, arg] = [e.slice(0, e.indexOf(':')), e.slice(e.indexOf(':') + 1)];
        if (kind === 'onCommand') assert.ok(declaredCommands.has(arg), `${s.id}: ${e} names an undeclared command`);
        else if (kind === 'onContext')
          assert.ok(contextKeys.has(arg), `${s.id}: ${e} names a context key the extension never sets (it sets ${[...contextKeys].join(', ')})`);
        else if (kind === 'onSettingChanged') assert.ok(settings.has(arg), `${s.id}: ${e} names an unknown setting`);
        else if (kind === 'onView') assert.ok(viewIds.has(arg), `${s.id}: ${e} names an unknown view`);
        else assert.fail(`${s.id}: ${e} is not a completion event this test knows`);
      }
    }
  });

  it('the context-key scan itself finds the keys the welcome views use (so the check above is not empty)', function () {
    for (const k of ['docsAssistant.baseUrlConfigured', 'docsAssistant.projectConfigured', 'docsAssistant.hasAdminKey', 'docsAssistant.hasJobs'])
      assert.ok(contextKeys.has(k), k);
  });
});
