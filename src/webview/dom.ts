// A tiny element builder: text goes in as text nodes, never as HTML, so nothing from the
// network can become markup except through the sanitized markdown path.

type Attrs = Record<string, string | number | boolean | undefined>;
type Child = Node | string | null | undefined | false;

/**
 * An element with `attrs` and `children`. What the user reads (a text child, a title, aria-label,
 * placeholder or alt) is in the display language: scripts/check-l10n.mjs holds callers to l10n.t.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  /** @userFacing title, aria-label, placeholder and alt */
  attrs: Attrs = {},
  /** @userFacing */
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === 'class') el.className = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

export function icon(name: string, extra = ''): HTMLElement {
  return h('span', { class: `codicon codicon-${name}${extra ? ` ${extra}` : ''}`, 'aria-hidden': 'true' });
}

/**
 * An icon button with an accessible name; `action` is read by the click delegation in main.ts.
 * With visible `text`, that text is its name (a voice-control user says what they see, and a
 * screen reader reads the same words), and `label`, when it says more, is its description and
 * tooltip. Without text, `label` is its name.
 */
export function iconButton(
  iconName: string,
  /** @userFacing its tooltip; its accessible name when it has no text, else its description */
  label: string,
  action: string,
  data: Attrs = {},
  /** @userFacing */
  text?: string,
): HTMLButtonElement {
  const named: Attrs = text ? { title: label === text ? undefined : label } : { title: label, 'aria-label': label };
  const attrs: Attrs = { type: 'button', class: text ? 'button-secondary' : 'icon-button', ...named, 'data-action': action };
  for (const [k, v] of Object.entries(data)) attrs[`data-${k}`] = v;
  return h('button', attrs, icon(iconName), text ? h('span', {}, text) : null);
}
