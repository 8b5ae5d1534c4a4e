import * as l10n from '@vscode/l10n';
import { chipLabel } from '../common/chips';
import type { ContextChip } from '../common/protocol';
import { h, icon, iconButton } from './dom';

// A context chip: under a question in the transcript, and (editable: switch its kind, remove it)
// above the input box.

export function chipElement(c: ContextChip, editable: boolean): HTMLElement {
  const el = h(
    'span',
    {
      class: 'chip',
      title: c.truncatedFrom ? l10n.t('Cut to {0} of {1} characters', c.value.length.toLocaleString(), c.truncatedFrom.toLocaleString()) : (c.path ?? ''),
    },
    icon(c.type === 'code' ? 'code' : 'note'),
    h('span', { class: 'chip-label' }, chipLabel(c)),
    c.truncatedFrom ? h('span', { class: 'chip-note' }, l10n.t('cut to {0} chars', c.value.length.toLocaleString())) : null,
  );
  if (editable) {
    el.append(
      h(
        'button',
        {
          type: 'button',
          class: 'chip-kind',
          'data-action': 'toggleChipType',
          'data-chip': c.id,
          title: l10n.t('Send as code or as text'),
          'aria-label': c.type === 'code' ? l10n.t('Sent as code; switch') : l10n.t('Sent as text; switch'),
        },
        c.type === 'code' ? l10n.t('code') : l10n.t('text'),
      ),
      iconButton('close', l10n.t('Remove {0}', chipLabel(c)), 'removeChip', { chip: c.id }),
    );
  }
  return el;
}
