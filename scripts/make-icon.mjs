#!/usr/bin/env node
// Renders the Marketplace / Open VSX icon, media/icon.png (128×128), from the activity bar glyph
// media/docs-assistant.svg: the glyph in white on a solid rounded tile, so it reads on the light
// and the dark gallery pages alike (the glyph alone is a thin `currentColor` line drawing, which
// would vanish on one of them). The chat bubble is filled with an accent colour so the
// "documents + conversation" shape still reads at 32 px.
//
// Rendered by Debian's Chromium through playwright-core (already a devDependency for the e2e
// suite), so no image tool is needed. The PNG is committed; run this again only when the glyph
// or the colours change:   node scripts/make-icon.mjs [out.png]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = join(ROOT, 'media', 'docs-assistant.svg');
const OUT = process.argv[2] ?? join(ROOT, 'media', 'icon.png');
const CHROMIUM = '/usr/bin/chromium';

const SIZE = 128;
// The tile: a blue vertical gradient (opaque everywhere inside the tile).
const TILE_TOP = '#2f6fde';
const TILE_BOTTOM = '#1a47a8';
const GLYPH = '#ffffff';
const BUBBLE = '#ffc83d';
/** Glyph scale from its 24-unit view box, and the stroke width in those units (the source uses 1.5). */
const SCALE = 4.6;
const STROKE = 1.55;

const svg = readFileSync(SOURCE, 'utf8');
const paths = [...svg.matchAll(/<path\b[^>]*\/>/g)].map((m) => m[0]);
if (paths.length < 2) throw new Error(`${SOURCE} no longer has the paths this script expects (found ${paths.length}).`);
// The last path is the chat bubble (see the source file); it gets the accent fill.
const bubble = paths.at(-1).replace('<path', `<path fill="${BUBBLE}" stroke="${BUBBLE}"`);
const page = paths.slice(0, -1).join('');

// The glyph's drawn extent in the 24-unit box is about x 3.3–22.3, y 2.3–23.3 (strokes included):
// centre it on the tile, nudged down-left a little so the bubble's tail does not touch the edge.
const cx = 12.8;
const cy = 12.8;
const offset = (v) => SIZE / 2 - v * SCALE;

const icon = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">
  <defs><linearGradient id="tile" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${TILE_TOP}"/><stop offset="1" stop-color="${TILE_BOTTOM}"/></linearGradient></defs>
  <rect x="0" y="0" width="${SIZE}" height="${SIZE}" rx="26" fill="url(#tile)"/>
  <g transform="translate(${offset(cx)} ${offset(cy)}) scale(${SCALE})" fill="none" stroke="${GLYPH}" stroke-width="${STROKE}" stroke-linecap="round" stroke-linejoin="round">
    ${page}
    ${bubble}
  </g>
</svg>`;

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const context = await browser.newContext({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  const tab = await context.newPage();
  await tab.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${icon}</body></html>`);
  // Transparent outside the rounded corners; the tile itself is opaque.
  await tab.locator('svg').screenshot({ path: OUT, omitBackground: true });
  console.log(`wrote ${OUT} (${SIZE}×${SIZE})`);
} finally {
  await browser.close();
}
