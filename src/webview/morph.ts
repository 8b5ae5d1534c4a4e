// Brings a live DOM subtree up to date with a freshly rendered one, keeping every node that is
// already right. A streamed block is re-rendered many times while it grows, and each new render
// differs from the last only at its end: replacing the whole block would make the browser
// restyle, rebuild and reshape all of it every time, while updating it in place leaves the
// browser only the new words and elements to lay out. It also keeps what the reader is doing
// with the block (a text selection, a hovered button) across renders.
//
// `fresh` is already sanitized; nodes move from it into `live` as they are, and an attribute is
// never copied on its own: an element whose attributes differ is replaced whole.

/**
 * Makes the children of `live` from `from` on equal to the children of `fresh` (which it empties
 * of what it uses). Children before `from` are left as they are; `null` appends.
 */
export function morphChildren(live: Node, fresh: Node, from: ChildNode | null = live.firstChild): void {
  let old = from;
  let next = fresh.firstChild;
  while (next) {
    const following = next.nextSibling;
    if (old && sameShell(old, next)) {
      if (old.nodeType === Node.ELEMENT_NODE) morphChildren(old, next);
      else if (old.nodeValue !== next.nodeValue) setData(old as CharacterData, next.nodeValue ?? '');
      old = old.nextSibling;
    } else {
      live.insertBefore(next, old);
    }
    next = following;
  }
  while (old) {
    const following = old.nextSibling;
    live.removeChild(old);
    old = following;
  }
}

/** Same kind of node, and for elements the same tag and attributes: only the contents may differ. */
function sameShell(a: Node, b: Node): boolean {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  const x = (a as Element).attributes;
  const y = b as Element;
  if (x.length !== y.attributes.length) return false;
  for (let i = 0; i < x.length; i++) {
    const attr = x[i]!;
    if (y.getAttributeNS(attr.namespaceURI, attr.localName) !== attr.value) return false;
  }
  return true;
}

/** Text that grew is appended, so the browser can extend its line layout instead of redoing it. */
function setData(node: CharacterData, data: string): void {
  if (data.length > node.length && data.startsWith(node.data)) node.appendData(data.slice(node.length));
  else node.data = data;
}
