// Writes a file that another process may read at any moment, so that the reader sees the old
// text or the new, never a part of either. writeFileSync truncates, then writes: a read in
// between finds an empty or half-written file. Here the text goes to a temporary file in the
// same folder (a rename never crosses file systems), and renameSync swaps it in with one
// rename(2), which POSIX makes atomic: the name points at the old file or at the new one.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export function writeFileAtomically(file, text) {
  // The pid keeps two writers' temporary files apart; a process's own writes are synchronous.
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  } catch (e) {
    rmSync(temporary, { force: true });
    throw e;
  }
}
