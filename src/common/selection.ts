// A selection: a passage of a document, as every surface names it. The editor's selection, the
// range a code action names, a #selection or #file reference in VS Code's Chat, the agent's prompt
// and the chat's chips all describe one passage with these fields, so there is one type for it.
// A chip (protocol.ts) is a selection attached to a question; the request's `context` items
// (src/api/types.ts, which may import nothing of src/) are what the wire takes of a chip.

/** What the service is told a selection is (service-interface.md §2.3): source code or prose. */
export type ContextKind = 'code' | 'textSelection';

export interface Selection {
  /** Workspace-relative path (or the file's name outside every workspace folder). */
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** The document's language, when known: it decides code or prose. */
  languageId?: string;
  text: string;
}
