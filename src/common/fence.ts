// A Markdown code fence around text that may itself hold backticks: longer than any backtick run
// inside, so the text cannot close it. Both prompts the agent gets (from the palette and from the
// chat) fence a selection with it.

export function fenceFor(text: string): string {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 96 ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return '`'.repeat(Math.max(3, longest + 1));
}

/** `text` in a fence it cannot break, with an optional info string (a language id). */
export function fenced(text: string, info = ''): string {
  const fence = fenceFor(text);
  return `${fence}${info}\n${text}\n${fence}`;
}
