import type { ContextChip } from './protocol';

// How a chip is named wherever it is shown: on the chip in the webview, in the host's
// "already attached" message and in the prompt for the agent.

/** `path:10-12`, `path:4`, or `selection` for a chip without a file. */
export function chipLabel(chip: ContextChip): string {
  const name = chip.path ?? 'selection';
  if (chip.startLine === undefined) return name;
  return chip.startLine === chip.endLine ? `${name}:${chip.startLine}` : `${name}:${chip.startLine}-${chip.endLine}`;
}
