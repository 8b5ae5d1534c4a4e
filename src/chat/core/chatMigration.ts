import type { Memento } from '../../common/memento';
import type { ConversationFiles } from './conversationFiles';
import { conversationKey, KEY, readMementoChats, type MementoChats } from './mementoLayout';

// The move from workspaceState to files, on the first start of a version that keeps conversations
// in files. Every conversation found there is written to its file first; only once they all are,
// and the file store's index names them, are the old keys deleted and the marker set. A window
// closed half way finds the old keys still there and moves them again (a file written twice is the
// same file), so nothing is lost, and once the marker is set it never runs again.

/** Set once the conversations in workspaceState have moved to files. */
export const MIGRATED_KEY = 'docsAssistant.chat.movedToFiles';

/**
 * Writes the conversations stored in workspaceState to files, and returns them (the one on screen
 * first), with the rest of what was stored there; undefined when there is nothing to move. Throws
 * when a file could not be written: then nothing is deleted and the next start tries again.
 */
export async function moveToFiles(memento: Memento, files: ConversationFiles): Promise<MementoChats | undefined> {
  if (memento.get(MIGRATED_KEY) === true) return undefined;
  const old = readMementoChats(memento);
  if (!old) return undefined;
  for (const c of [...(old.current ? [old.current] : []), ...old.history]) await files.put(c);
  return old;
}

/** moveToFiles, its failure reported rather than thrown: `failed` says the move must not be finished. */
export async function tryMoveToFiles(memento: Memento, files: ConversationFiles): Promise<{ moved?: MementoChats; failed: boolean }> {
  try {
    return { moved: await moveToFiles(memento, files), failed: false };
  } catch (err) {
    files.report('move', err);
    return { failed: true };
  }
}

/** After the file store's index names the moved conversations: the old keys go, and the marker says it is done. */
export async function finishMove(memento: Memento, moved: MementoChats | undefined): Promise<void> {
  if (memento.get(MIGRATED_KEY) !== true) await memento.update(MIGRATED_KEY, true);
  if (!moved) return;
  for (const c of [...(moved.current ? [moved.current] : []), ...moved.history]) await memento.update(conversationKey(c.id), undefined);
  await memento.update(KEY, undefined);
}
