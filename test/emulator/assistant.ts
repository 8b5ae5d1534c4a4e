import { randomBytes } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import type { ResolvedOptions } from './config';
import { composeAnswer, toDeltas, type ContextNote } from './compose';
import { errorBody, type Exchange } from './exchange';
import { cannedAssistantFault, chooseFault, FAULT_HEADER, isStreamFault, RESPONSE_FAULTS, STREAM_FAULTS, stripMagicWords, type AssistantFault } from './faults';
import { tokenize, type DocsIndex, type SearchFilter } from './retrieval';
import { streamAnswer, type AnswerPlan } from './streams';
import { BEACON_ANSWER, beaconAnswer, hostileAnswer } from '../fixtures/hostileAnswer';

/** `[[answer:hostile]]` in a question: the answer is test/fixtures/hostileAnswer.ts, for the e2e. */
const HOSTILE_ANSWER = /\[\[answer:hostile\]\]/i;
/** `[[answer:first:<word>]]` in a question: the answer starts with that word (bench/first-glyph.ts waits for it). */
const FIRST_WORD = /\[\[answer:first:([A-Za-z0-9]+)\]\]/i;

// POST /discovery/{v1|v2}/assistant/{domain}/message: checks the body the way the service's
// schema does (service-interface.md §2.3), keeps conversation threads, searches the docs and
// streams the answer.

const CURRENT_PATH_MAX = 200;
const ASSISTANT_FAULTS: readonly AssistantFault[] = [...STREAM_FAULTS, ...RESPONSE_FAULTS];
/** A question with fewer content words than this is read together with the one before it. */
const SHORT_QUESTION_TERMS = 3;
/** How much of each selected context item goes into the search. */
const CONTEXT_CHARS = 2000;

interface Thread {
  id: string;
  key: string;
  /** Each turn's question and what was searched for, so a terse follow-up can lean on the one before. */
  turns: { question: string; query: string }[];
}

interface WireMessage {
  role: string;
  text: string;
}

interface ValidBody {
  messages: WireMessage[];
  threadId?: string;
  threadKey?: string;
  retrievalPageSize: number;
  filter?: SearchFilter | null;
  context: { type: string; value: string; path?: string }[];
  currentPath?: string;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optString = (v: unknown): boolean => v === undefined || typeof v === 'string';

const id = (prefix: string, bytes = 8): string => `${prefix}_${randomBytes(bytes).toString('hex')}`;

export class Assistant {
  private readonly threads = new Map<string, Thread>();

  constructor(
    private readonly opts: ResolvedOptions,
    private readonly docs: DocsIndex,
    private readonly baseUrl: () => string,
  ) {}

  reset(): void {
    this.threads.clear();
  }

  async handle(ex: Exchange, version: 'v1' | 'v2'): Promise<void> {
    let raw: unknown;
    try {
      raw = JSON.parse(ex.rawBody);
    } catch {
      return ex.json(400, errorBody('Request body is not valid JSON.'));
    }
    const checked = validate(raw, version);
    if (typeof checked === 'string') return ex.json(400, errorBody(checked));

    const last = checked.messages[checked.messages.length - 1]!;
    const choice = chooseFault(ex.header(FAULT_HEADER), last.text, ASSISTANT_FAULTS);
    if (choice && 'unknown' in choice) {
      return ex.json(400, errorBody(`Unknown emulator fault "${choice.unknown}". Known: ${ASSISTANT_FAULTS.join(', ')}.`));
    }
    const fault = choice?.mode;
    if (fault === 'stall-headers') return ex.hold();
    if (fault && !isStreamFault(fault)) {
      const canned = cannedAssistantFault(fault, this.opts.domain);
      return ex.send(canned.status, canned.contentType, canned.body, canned.headers);
    }

    let thread: Thread | undefined;
    const headers: OutgoingHttpHeaders = {};
    if (checked.threadId !== undefined) {
      thread = this.threads.get(checked.threadId);
      // A missing or wrong key looks exactly like an unknown thread, so ids cannot be probed.
      if (!thread || (this.opts.threadKeys && checked.threadKey !== thread.key)) return ex.json(404, errorBody('Thread not found'));
    } else {
      thread = { id: id('thr'), key: id('tk', 16), turns: [] };
      this.threads.set(thread.id, thread);
      if (this.opts.threadKeys) headers['x-thread-key'] = thread.key;
    }
    headers['x-thread-id'] = thread.id;

    const plan = this.plan(checked, thread);
    await streamAnswer(ex, version, plan, fault, headers, this.opts);
  }

  private plan(body: ValidBody, thread: Thread): AnswerPlan {
    const userTurns = body.messages.filter((m) => m.role === 'user');
    const question = stripMagicWords(userTurns[userTurns.length - 1]!.text);
    // The thread remembers the turn before; a client that lost its thread still sends it along.
    const previousMessage = userTurns.length > 1 ? stripMagicWords(userTurns[userTurns.length - 2]!.text) : undefined;
    const earlier = thread.turns[thread.turns.length - 1] ?? (previousMessage ? { question: previousMessage, query: previousMessage } : undefined);
    const followUpOf = earlier && looksLikeFollowUp(question) ? earlier : undefined;
    const query = followUpOf ? `${question} ${followUpOf.query}` : question;
    thread.turns.push({ question, query });

    const contextText = body.context.map((c) => `${c.path ?? ''} ${c.value.slice(0, CONTEXT_CHARS)}`).join(' ');
    const hits = this.docs.search({
      terms: tokenize(query),
      contextTerms: tokenize(contextText),
      limit: body.retrievalPageSize,
      filter: body.filter,
      currentPath: body.currentPath,
    });
    const context: ContextNote[] = body.context.map((c) => (c.path ? { type: c.type, path: c.path } : { type: c.type }));
    let answer = composeAnswer({ question, followUpOf: followUpOf?.question, context, hits, baseUrl: this.baseUrl() });
    if (HOSTILE_ANSWER.test(userTurns[userTurns.length - 1]!.text)) answer = { ...answer, markdown: hostileAnswer(this.baseUrl()) };
    const beacon = BEACON_ANSWER.exec(userTurns[userTurns.length - 1]!.text)?.[1];
    if (beacon) answer = { ...answer, markdown: beaconAnswer(beacon) };
    const firstWord = FIRST_WORD.exec(userTurns[userTurns.length - 1]!.text)?.[1];
    if (firstWord) answer = { ...answer, markdown: `${firstWord} ${answer.markdown}` };
    return {
      messageId: id('msg'),
      toolCallId: id('call'),
      textId: id('txt', 4),
      threadId: thread.id,
      query: query.replace(/\s+/g, ' ').trim(),
      answer,
      deltas: toDeltas(answer.markdown),
    };
  }
}

/** "And retries?", "How do I rotate it?": too short, or leaning on a pronoun, to stand alone. */
export function looksLikeFollowUp(question: string): boolean {
  return tokenize(question).length < SHORT_QUESTION_TERMS || /\b(it|its|that|this|these|those|them|there)\b/i.test(question);
}

function textOf(message: Record<string, unknown>): string {
  const parts = Array.isArray(message.parts) ? message.parts : [];
  const text = parts
    .filter((p): p is { type: string; text: string } => isObj(p) && p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text)
    .join('');
  return text !== '' ? text : typeof message.content === 'string' ? message.content : '';
}

/** The body as the service would accept it, or why not (a 400 message). */
export function validate(raw: unknown, version: 'v1' | 'v2'): ValidBody | string {
  if (!isObj(raw)) return 'The request body must be a JSON object.';
  if (typeof raw.fp !== 'string') return 'fp is required and must be a string ("anonymous" or a user identifier).';
  if (!Array.isArray(raw.messages)) return 'messages is required and must be an array.';
  if (raw.messages.length === 0) return 'messages must not be empty.';
  const messages: WireMessage[] = [];
  for (const [i, m] of raw.messages.entries()) {
    if (!isObj(m)) return `messages[${i}] must be an object.`;
    if (typeof m.id !== 'string') return `messages[${i}].id is required and must be a string.`;
    if (m.role !== 'user' && m.role !== 'assistant' && m.role !== 'system') return `messages[${i}].role must be "user", "assistant" or "system".`;
    if (!Array.isArray(m.parts)) return `messages[${i}].parts is required and must be an array.`;
    for (const [j, p] of m.parts.entries()) {
      if (!isObj(p) || typeof p.type !== 'string') return `messages[${i}].parts[${j}].type is required and must be a string.`;
      if (p.type === 'text' && typeof p.text !== 'string') return `messages[${i}].parts[${j}].text must be a string.`;
    }
    if (version === 'v1' && typeof m.content !== 'string') return `messages[${i}].content is required in v1 and must be a string.`;
    messages.push({ role: m.role, text: textOf(m) });
  }
  const last = messages[messages.length - 1]!;
  if (last.role !== 'user') return 'The last message must be a user message.';
  if (stripMagicWords(last.text) === '' && !/\[\[fault:/i.test(last.text)) return 'The last user message has no text.';

  if (raw.threadId !== undefined && raw.threadId !== null && typeof raw.threadId !== 'string') return 'threadId must be a string or null.';
  if (raw.threadKey !== undefined && raw.threadKey !== null && typeof raw.threadKey !== 'string') return 'threadKey must be a string or null.';

  let retrievalPageSize = 5;
  if (raw.retrievalPageSize !== undefined) {
    const n = raw.retrievalPageSize;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 1 || n > 50) return 'retrievalPageSize must be a number from 1 to 50.';
    retrievalPageSize = Math.floor(n);
  }

  let filter: SearchFilter | null | undefined;
  if (raw.filter !== undefined && raw.filter !== null) {
    const f = raw.filter;
    if (!isObj(f)) return 'filter must be an object or null.';
    if (!optString(f.version) || !optString(f.language)) return 'filter.version and filter.language must be strings.';
    if (f.groups !== undefined && !(Array.isArray(f.groups) && f.groups.every((g) => typeof g === 'string')))
      return 'filter.groups must be an array of strings.';
    filter = {};
    if (typeof f.version === 'string') filter.version = f.version;
    if (typeof f.language === 'string') filter.language = f.language;
    if (Array.isArray(f.groups)) filter.groups = f.groups as string[];
  } else if (raw.filter === null) {
    filter = null;
  }

  const context: ValidBody['context'] = [];
  if (raw.context !== undefined) {
    if (!Array.isArray(raw.context)) return 'context must be an array.';
    for (const [i, c] of raw.context.entries()) {
      if (!isObj(c)) return `context[${i}] must be an object.`;
      if (c.type !== 'code' && c.type !== 'textSelection') return `context[${i}].type must be "code" or "textSelection".`;
      if (typeof c.value !== 'string') return `context[${i}].value is required and must be a string.`;
      if (!optString(c.path) || !optString(c.elementId)) return `context[${i}].path and .elementId must be strings.`;
      context.push(typeof c.path === 'string' && c.path !== '' ? { type: c.type, value: c.value, path: c.path } : { type: c.type, value: c.value });
    }
  }

  if (raw.currentPath !== undefined) {
    if (typeof raw.currentPath !== 'string') return 'currentPath must be a string.';
    if (raw.currentPath.length > CURRENT_PATH_MAX) return `currentPath must be at most ${CURRENT_PATH_MAX} characters.`;
  }

  const body: ValidBody = { messages, retrievalPageSize, filter, context };
  if (typeof raw.threadId === 'string' && raw.threadId !== '') body.threadId = raw.threadId;
  if (typeof raw.threadKey === 'string') body.threadKey = raw.threadKey;
  if (typeof raw.currentPath === 'string' && raw.currentPath !== '') body.currentPath = raw.currentPath;
  return body;
}
