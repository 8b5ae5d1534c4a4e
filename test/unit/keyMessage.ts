import { keyProblem, type KeyKind } from '../../src/api';
import { english } from '../../src/common/l10n';
import { keyProblemWords } from '../../src/host/core/keyWords';

// What the user reads about a key they typed or pasted, worded as the input box and the errors
// word it: keys.test.ts and error-words.test.ts check those words, and that none repeats the key.

export const ADMIN = 'svc_7fK2pQ9xLm3Zt8Rw';
export const ASSISTANT = 'svc_dsc_Hq4nV8yTb2Kp6Lm1';

/** What the user reads about `key` (the input box, an error), or undefined when it is a good key. */
export function keyMessage(key: string, kind: KeyKind): string | undefined {
  const problem = keyProblem(key, kind);
  return problem === undefined ? undefined : keyProblemWords(problem, kind, english);
}

/** Keys of the wrong kind or shape, with the kind they were given as: no message about them may repeat them. */
export const WRONG_KEYS: readonly (readonly [string, KeyKind])[] = [
  [ASSISTANT, 'admin'],
  [ADMIN, 'assistant'],
  ['svc_abc def', 'admin'],
  ['sk-secret-value', 'assistant'],
];
