import * as l10n from '@vscode/l10n';
import type { ChatSnapshot, ErrorAction } from '../common/protocol';
import { Announcer } from './announcer';
import { ChatAnnouncements } from './chatAnnouncements';
import { h, icon } from './dom';
import { Composer } from './composer';
import { showCopied } from './copied';
import { NoReply, reasonOf } from './pendingRequests';
import { getPersistedState, handleNotifications, handleRequestFailures, request, setPersistedState, tell } from './rpc';
import { firstDrawnAtOnce, LazyTurns } from './lazyTurns';
import { TurnElement } from './turns';
import { readImageOrigins, showLoadedImage } from './images';
import { useL10nBundle } from './l10nBundle';
import { installPageFocus } from './pageFocus';
import { ScrollFollower } from './follow';

// The chat UI. It renders what the host sends and asks the host for everything else: it holds
// no key, opens no link and starts nothing on its own. Its words are in the display language:
// the bundle the host put in the page is read first, before anything is rendered.

useL10nBundle(document);
const app = document.getElementById('app')!;
readImageOrigins(app);
const banner = h('div', { class: 'setup-banner', hidden: true });
// Not a live region: each render of a streaming answer would be read. The announcer says what matters.
const transcript = h('div', { class: 'transcript', role: 'region', 'aria-label': l10n.t('Conversation'), tabindex: '0' });
const announcer = new Announcer();
const announcements = new ChatAnnouncements(announcer);
const composer = new Composer(
  // A question that was not taken is said, as well as shown under the box.
  (text) => announcer.sayRefusal(request('send', { text })),
  () => tell('stop', {}),
  // A draft that did not reach the host is still in the box, and the next keystroke sends it again.
  (text) => void request('saveDraft', { text }).catch(() => undefined),
);

let saveTimer: ReturnType<typeof setTimeout> | undefined;
const follower = new ScrollFollower(
  transcript,
  getPersistedState().pinned ?? true,
  // Where the reader was is kept with the page's state, so a reload puts them back.
  (scrollTop, pinned) => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => setPersistedState({ conversationId: shown?.conversationId, scrollTop, pinned }), 150);
  },
  () => composer.focus(),
);
const followIfPinned = (): void => follower.follow();
app.append(banner, transcript, follower.jump, composer.root, announcer.el);
// Focus never falls to the page's <body>; the keys that move it (pageFocus.ts).
const keeper = installPageFocus({ app, transcript, composer });
// A request the page sends without using its reply, when it fails (refused, or not answered in
// time), is told in the line under the input box instead of nothing happening, and said.
function tellFailure(reason: string): void {
  composer.showHint(reason);
  announcer.say(reason);
}
handleRequestFailures(tellFailure);

/**
 * What the page keeps of the last snapshot. Not its turns' answers: each turn holds its own, its
 * text in the renderer that shows it (turns.ts), and a copy kept here would outlive every delta.
 */
let shown: { conversationId: string; turnIds: string[]; busy: boolean } | undefined;
const turns = new Map<string, TurnElement>();
const lazy = new LazyTurns(transcript, () => followIfPinned());

function emptyState(): HTMLElement {
  const examples = [l10n.t('How do I get started?'), l10n.t('What are the rate limits?'), l10n.t('How do I authenticate requests?')];
  return h(
    'div',
    { class: 'empty-state' },
    icon('book'),
    h('h2', {}, l10n.t('Ask the docs')),
    h(
      'p',
      {},
      l10n.t('Answers come from your documentation, with their sources. Select code or text in an editor and run “Ask Docs About Selection” to ask about it.'),
    ),
    h('div', { class: 'examples' }, ...examples.map((q) => h('button', { type: 'button', class: 'example', 'data-action': 'example', 'data-text': q }, q))),
  );
}

function render(s: ChatSnapshot): void {
  const sameConversation = shown?.conversationId === s.conversationId;
  // A question the user just sent brings them down to it, as in other chat panels.
  if (sameConversation && s.turns.length > (shown?.turnIds.length ?? 0)) follower.pinned = true;
  // Rebuilding the transcript resets its scroll position; a reader who scrolled up keeps theirs.
  const keepTop = transcript.scrollTop;
  shown = { conversationId: s.conversationId, turnIds: s.turns.map((t) => t.id), busy: s.busy };
  app.setAttribute('aria-busy', 'false');
  banner.hidden = !s.setupHint;
  banner.replaceChildren();
  if (s.setupHint)
    banner.append(
      icon('warning'),
      h('span', {}, s.setupHint.message),
      h(
        'button',
        { type: 'button', class: 'button-secondary', 'data-action': 'runAction', 'data-action_name': s.setupHint.action },
        s.setupHint.action === 'setAssistantKey' ? l10n.t('Set Assistant Key') : l10n.t('Open Settings'),
      ),
    );

  // Keep the DOM of turns that are unchanged; rebuild only what differs.
  const wanted = new Set(s.turns.map((t) => t.id));
  for (const [id, el] of turns)
    if (!wanted.has(id) || !sameConversation) {
      el.root.remove();
      el.dispose();
      lazy.forget(el);
      turns.delete(id);
    }
  transcript.replaceChildren();
  if (!s.turns.length) transcript.append(emptyState());
  const drawnFrom = firstDrawnAtOnce(s.turns, transcript.clientHeight || window.innerHeight);
  for (const [i, t] of s.turns.entries()) {
    let el = turns.get(t.id);
    if (el && !el.shows(t.answer)) {
      el.root.remove();
      el.dispose();
      lazy.forget(el);
      el = undefined;
    }
    if (!el) {
      el = new TurnElement(t, s.agentAvailable, followIfPinned, i < drawnFrom);
      turns.set(t.id, el);
    }
    el.setAgentAvailable(s.agentAvailable);
    transcript.append(el.root);
    lazy.watch(el);
  }
  composer.update(s);
  if (!sameConversation) {
    const saved = getPersistedState();
    if (saved.conversationId === s.conversationId && saved.scrollTop !== undefined && saved.pinned === false) {
      follower.pinned = false;
      transcript.scrollTop = saved.scrollTop;
    } else {
      follower.pinned = true;
    }
  } else if (!follower.pinned) {
    transcript.scrollTop = keepTop;
  }
  followIfPinned();
}

/** Renders `s`, then says what changed that a screen reader should hear. */
function show(s: ChatSnapshot): void {
  keeper.around(() => render(s));
  announcements.rendered(s, (id) => turns.get(id));
}

// What the host tells the page: one handler per notification (a missing one does not compile).
handleNotifications({
  snapshot: show,
  patch: ({ turnId, patches }) => {
    const el = turns.get(turnId);
    if (!el) return;
    keeper.around(() => el.apply(patches));
    announcements.patched(turnId, el, patches);
    // Text is rendered later (at most once per frame) and follows the bottom from there; reading the
    // layout here on every delta would force a layout per delta for nothing.
    if (patches.some((p) => p.op !== 'appendText')) followIfPinned();
  },
  focusInput: ({ text }) => (text === undefined ? composer.focus() : composer.setText(text)),
});

// Links: one click, one open, and only through the host. VS Code's own webview frame opens any
// link clicked in the page (its handler on this window does not look at defaultPrevented), so a
// link's click would also open it a second time, without the host's checks. The click is stopped
// here, at the window in the capture phase, before any other handler sees it; a middle click
// (auxclick) too. Keyboard activation of a link is a click as well.
function onLinkActivation(e: MouseEvent): void {
  const target = e.target instanceof Element ? e.target : e.target instanceof Node ? e.target.parentElement : null;
  const link = target?.closest('a, area');
  if (!link) return;
  e.preventDefault();
  e.stopImmediatePropagation();
  if (e.type === 'auxclick' && e.button !== 1) return;
  const href = link.getAttribute('href');
  if (href && !href.startsWith('#')) tell('openLink', { url: href });
}
window.addEventListener('click', onLinkActivation, true);
window.addEventListener('auxclick', onLinkActivation, true);

// One click handler for every button in the page.
document.addEventListener('click', (e) => {
  const target = e.target as Element | null;
  const btn = target?.closest<HTMLElement>('[data-action]');
  if (!btn) return;
  const d = btn.dataset;
  const turnId = d.turn ?? btn.closest<HTMLElement>('[data-turn]')?.dataset.turn;
  switch (d.action) {
    case 'copyCode':
    case 'insertCode': {
      // The code block's source text: its <code> holds the markdown's code token's text and
      // nothing else (raw HTML cannot reach it), cut into chunks of lines (codeChunks.ts) that
      // add no character, so nothing hidden comes along.
      const code = btn.closest('.code-block')?.querySelector('pre > code')?.textContent ?? '';
      tell(d.action, { code });
      break;
    }
    case 'loadImage': {
      const url = d.src;
      if (!url || btn.getAttribute('aria-busy') === 'true') break;
      btn.setAttribute('aria-busy', 'true');
      void request('loadImage', { url }).then(
        (r) => {
          btn.removeAttribute('aria-busy');
          if (r?.dataUrl) showLoadedImage(btn, r.dataUrl);
          else btn.title = r?.error ?? l10n.t('The image could not be loaded.');
        },
        (e: unknown) => {
          btn.removeAttribute('aria-busy');
          btn.title = reasonOf(e);
        },
      );
      break;
    }
    case 'copyAnswer':
      // The host writes the answer as Markdown, with its sources, from the conversation it keeps.
      if (turnId)
        void request('copyAnswer', { turnId }).then(
          (r) => r?.copied && showCopied(btn, (text) => announcer.say(text)),
          (e: unknown) => tellFailure(reasonOf(e)),
        );
      break;
    case 'accessibleView':
      // The host opens the answer, from the conversation it keeps, in a read-only editor.
      if (turnId) void request('openAccessibleView', { turnId }).catch((e: unknown) => tellFailure(reasonOf(e)));
      break;
    case 'runAction':
      tell('runAction', turnId ? { action: d.action_name as ErrorAction, turnId } : { action: d.action_name as ErrorAction });
      // The error (or the banner) and its button go once the action is taken: the input box is next.
      composer.focus();
      break;
    case 'fixInDocs':
      if (turnId) tell('fixInDocs', { turnId });
      break;
    case 'jobAction':
      if (d.job) tell('jobAction', { jobId: d.job, action: d.job_action as 'openPullRequest' | 'followUp' | 'showJob' | 'reviewChanges' | 'openPreview' });
      break;
    case 'removeChip':
      if (d.chip) tell('removeChip', { chipId: d.chip });
      break;
    case 'toggleChipType':
      if (d.chip) tell('toggleChipType', { chipId: d.chip });
      break;
    case 'example':
      composer.setText(d.text ?? '');
      break;
  }
});

// The handshake. The host answers `ready` at once; when it did not (a lost message, a host busy
// restarting), the page says so and asks again, rather than stay blank. A refusal is final: asked
// again, the host would refuse again.
function hello(): void {
  request('ready', {}).then(
    (s) => {
      composer.showHint('');
      show(s);
      // VS Code may have focused this webview (Focus on Ask Docs View) before the page could take it.
      if (document.hasFocus()) keeper.restoreIfLost();
    },
    (e: unknown) => {
      tellFailure(reasonOf(e));
      if (e instanceof NoReply) hello();
    },
  );
}
hello();
