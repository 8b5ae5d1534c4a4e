#!/usr/bin/env node
// `npm run screenshots`: the README's screenshots, taken by the e2e suite in a real VS Code.
//   1. packages the extension (the e2e suite installs the .vsix),
//   2. runs the e2e tour (test/e2e/readme-tour.e2e.ts), which saves readme-*.png in
//      test-results/e2e/ while it checks what they show,
//   3. copies each one to media/screenshots/ (the tour takes them 1200 px wide; a wider one is
//      scaled down to that), through pngquant when it is installed.
// Nothing is copied unless the whole tour passes. media/screenshots/ is left out of the .vsix
// (.vscodeignore); the PNGs are committed for the README.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// Taken on the code-server DOCS_ASSISTANT_CODE_SERVER names (4.100.3 by default), where the e2e
// suite saves them (test/e2e/workbench.ts, SHOTS).
const TARGET = process.env.DOCS_ASSISTANT_CODE_SERVER?.trim() || '4.100.3';
const FROM = join(ROOT, 'test-results', TARGET === '4.100.3' ? 'e2e' : `e2e-code-server-${TARGET}`);
const TO = join(ROOT, 'media', 'screenshots');
const WIDTH = 1200;
/** The tour's screenshot → the README's file name. */
const SHOTS = {
  'readme-1-chat-answer.png': 'chat-answer.png',
  'readme-2-review.png': 'review-prompt.png',
  'readme-3-job-pull-request.png': 'job-pull-request.png',
};

function run(cmd, args) {
  console.log(`\x1b[36m[screenshots]\x1b[0m ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`[screenshots] ${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}); no screenshot was copied.`);
    process.exit(1);
  }
}

const started = Date.now();
run('npm', ['run', 'package']);
// The e2e suite's own configuration, narrowed to the tour (the other suites' hooks do not run).
run(process.execPath, [join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--config', 'test/e2e/.mocharc.json', '--grep', 'e2e: the README tour']);

const stale = Object.keys(SHOTS).filter((f) => !existsSync(join(FROM, f)) || statSync(join(FROM, f)).mtimeMs < started);
if (stale.length) {
  console.error(`[screenshots] the tour passed but did not save ${stale.join(', ')} in this run.`);
  process.exit(1);
}

// A wider screenshot is scaled by Chromium (already here for the e2e suite): no image tool needed.
mkdirSync(TO, { recursive: true });
const widthOf = (png) => png.readUInt32BE(16);
const hasPngquant = spawnSync('pngquant', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hasPngquant) console.log('[screenshots] pngquant is not installed (apt-get install pngquant): the PNGs are copied unoptimised.');
let browser;
try {
  for (const [from, to] of Object.entries(SHOTS)) {
    const png = readFileSync(join(FROM, from));
    const out = join(TO, to);
    if (widthOf(png) <= WIDTH) {
      copyFileSync(join(FROM, from), out);
    } else {
      browser ??= await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
      const page = await browser.newPage({ viewport: { width: WIDTH, height: 800 }, deviceScaleFactor: 1 });
      await page.setContent(
        `<!doctype html><body style="margin:0"><img style="display:block;width:${WIDTH}px" src="data:image/png;base64,${png.toString('base64')}"></body>`,
      );
      await page.locator('img').evaluate((img) => img.decode());
      await page.locator('img').screenshot({ path: out });
      await page.close();
    }
    // pngquant (Debian's `pngquant`), when installed, makes them a third of the size with no
    // difference to see; without it they are copied as they are.
    if (hasPngquant) spawnSync('pngquant', ['--quality=70-95', '--speed', '1', '--strip', '--force', '--output', out, out], { stdio: 'inherit' });
    const written = readFileSync(out);
    console.log(`[screenshots] media/screenshots/${to}: ${widthOf(written)}×${written.readUInt32BE(20)}, ${Math.round(written.length / 1024)} KB`);
  }
} finally {
  await browser?.close();
}
