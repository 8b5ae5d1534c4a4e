// What the code actions (src/codeActions) hand to the commands they run. Features never import
// each other: the lightbulb knows the chat and the agent only as a command id and the plain,
// typed arguments below, and each command checks what it was given (any extension can run a
// command with any arguments), so the shapes are validated here, once, and so is what such a
// command may read (refuseTarget): only documents of this workspace that are open in an editor.

import type * as l10n from '@vscode/l10n';
import { english } from './l10n';

/** Asks the docs about a selection; with arguments, about that range of that document. */
export const ASK_ABOUT_SELECTION_COMMAND = 'docsAssistant.chat.askAboutSelection';
/** Starts an agent job; with arguments, from a draft about that range, reviewed before it is sent. */
export const FIX_DOCS_COMMAND = 'docsAssistant.agent.fixDocs';
/** Puts a reader's feedback into the chat as context (Docs Health, issue 31); nothing is sent until Send. */
export const ASK_ABOUT_FEEDBACK_COMMAND = 'docsAssistant.chat.askAboutFeedback';

export interface PositionArg {
  /** 0-based, as in VS Code. */
  line: number;
  character: number;
}

/** What a code action is about: a range of a document, and the symbol under the cursor when there was no selection. */
export interface CodeTargetArgs {
  /** The document's URI (vscode.Uri.toString()); only `file` and `untitled` documents are read. */
  uri: string;
  /** The selection, or the word at the cursor. */
  start: PositionArg;
  end: PositionArg;
  /**
   * The word at the cursor in code. When the command runs, the document's symbols may widen the
   * range to the symbol that word declares (or the one it sits in); looking them up is too slow
   * for the lightbulb itself.
   */
  symbol?: string;
}

/** docsAssistant.chat.askAboutSelection's argument: the target, attached to the chat, and the question asked about it. */
export interface AskAboutSelectionArgs extends CodeTargetArgs {
  question: string;
}

/** docsAssistant.agent.fixDocs's argument: the target the draft quotes. */
export type FixDocsArgs = CodeTargetArgs;

/** The most characters a symbol name may have; anything longer is not a name. */
const MAX_SYMBOL_CHARS = 200;
/** The longest question (the chat refuses longer ones anyway). */
const MAX_QUESTION_CHARS = 2000;

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 10_000_000;

function isPosition(p: unknown): p is PositionArg {
  return !!p && typeof p === 'object' && isCount((p as PositionArg).line) && isCount((p as PositionArg).character);
}

/** Whether `a` is a CodeTargetArgs (from a code action, or from anyone who runs the command). */
export function isCodeTarget(a: unknown): a is CodeTargetArgs {
  if (!a || typeof a !== 'object') return false;
  const t = a as Partial<CodeTargetArgs>;
  if (typeof t.uri !== 'string' || !/^(file|untitled):/.test(t.uri) || !isPosition(t.start) || !isPosition(t.end)) return false;
  if (t.start.line > t.end.line || (t.start.line === t.end.line && t.start.character > t.end.character)) return false;
  return t.symbol === undefined || (typeof t.symbol === 'string' && t.symbol.trim() !== '' && t.symbol.length <= MAX_SYMBOL_CHARS);
}

export function isAskAboutSelectionArgs(a: unknown): a is AskAboutSelectionArgs {
  const q = (a as Partial<AskAboutSelectionArgs> | undefined)?.question;
  return isCodeTarget(a) && typeof q === 'string' && q.trim() !== '' && q.length <= MAX_QUESTION_CHARS;
}

/** docsAssistant.chat.askAboutFeedback's argument: what a reader wrote about a page. Untrusted, like every argument. */
export interface AskAboutFeedbackArgs {
  /** The page on the docs site: `/quickstart`. */
  page: string;
  /** The page's workspace file, relative and `/`-separated (`quickstart.mdx`); absent when the page maps to none. */
  path?: string;
  /** The reader's words. */
  text: string;
}

/** The longest reader text the chat takes as one chip (its largest selection). */
const MAX_FEEDBACK_CHARS = 20_000;
/** The longest page path or file path. */
const MAX_PATH_CHARS = 2048;
// eslint-disable-next-line no-control-regex -- control and bidi characters are what a path may not hide.
const HIDDEN_IN_PATH = /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

/** A relative, `/`-separated path that stays where it is: no drive, scheme, backslash, dot segment or hidden character. */
function isRelativePath(p: unknown): p is string {
  if (typeof p !== 'string' || p === '' || p.length > MAX_PATH_CHARS || HIDDEN_IN_PATH.test(p) || /[\\:]/.test(p) || p.startsWith('/')) return false;
  return p.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

export function isAskAboutFeedbackArgs(a: unknown): a is AskAboutFeedbackArgs {
  if (!a || typeof a !== 'object') return false;
  const f = a as Partial<AskAboutFeedbackArgs>;
  if (typeof f.page !== 'string' || !f.page.startsWith('/') || f.page.length > MAX_PATH_CHARS || HIDDEN_IN_PATH.test(f.page)) return false;
  if (f.path !== undefined && !isRelativePath(f.path)) return false;
  return typeof f.text === 'string' && f.text.trim() !== '' && f.text.length <= MAX_FEEDBACK_CHARS;
}

/** Where a command run with arguments may read: URIs as vscode.Uri.toString() writes them. */
export interface ReadableScope {
  /** The workspace folders. */
  folders: readonly string[];
  /** The documents open in an editor tab (text editors and both sides of a diff). */
  openInEditors: readonly string[];
}

/** The most characters of a refused URI that its message shows. */
const MAX_NAMED_URI_CHARS = 300;

/** Whether `uri` is strictly inside `folder`, with no segment that could climb out of it. */
function isInside(uri: string, folder: string): boolean {
  const prefix = folder.endsWith('/') ? folder : `${folder}/`;
  if (!uri.startsWith(prefix) || uri.length === prefix.length) return false;
  // A query or fragment is not part of a file's name; a dot segment or an encoded slash or
  // backslash in a segment would name a file elsewhere once the path is resolved.
  if (/[?#]/.test(uri)) return false;
  return uri
    .slice(prefix.length)
    .split('/')
    .every((segment) => {
      let name: string;
      try {
        name = decodeURIComponent(segment);
      } catch {
        return false;
      }
      return name !== '' && name !== '.' && name !== '..' && !/[/\\]/.test(name);
    });
}

/**
 * Why a command run with arguments may not read the document `uri` names, in words that name
 * it, or undefined when it may. Anyone can run a command with any arguments (another extension, a
 * `command:` link), so such a command reads only what the user can see: a document inside one of
 * the workspace folders (an untitled document has no place on disk) that is open in an editor.
 */
export function refuseTarget(uri: string, scope: ReadableScope, t: (message: string, ...args: l10n.L10nReplacement[]) => string = english): string | undefined {
  const l10n = { t };
  const name = uri.length > MAX_NAMED_URI_CHARS ? `${uri.slice(0, MAX_NAMED_URI_CHARS)}…` : uri;
  const rule = l10n.t('A command run with arguments (by another extension or a link) reads only files of this workspace that are open in an editor.');
  if (!uri.startsWith('untitled:') && !scope.folders.some((f) => isInside(uri, f)))
    return l10n.t('Docs Assistant: Not reading {0}: it is outside this workspace’s folders. {1}', name, rule);
  if (!scope.openInEditors.includes(uri)) return l10n.t('Docs Assistant: Not reading {0}: it is not open in an editor. {1}', name, rule);
  return undefined;
}
