#!/usr/bin/env node
// Installs code-server (a real VS Code: server, extension host and web workbench) into
// .vscode-test/code-server, without the downloads its postinstall would make from GitHub, which
// this network blocks. @vscode/test-electron cannot download VS Code here; this can be installed
// from the npm registry alone. Idempotent: a finished install leaves READY and is reused.
//
// Needs, from Debian: libkrb5-dev (kerberos builds against it), ripgrep (stands in for
// @vscode/ripgrep's download), a C/C++ toolchain (node-gyp rebuilds). .ci/run installs them.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync, readFileSync, lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const INSTALL_DIR = join(ROOT, '.vscode-test', 'code-server');
export const CODE_SERVER_BIN = join(INSTALL_DIR, 'node_modules', '.bin', 'code-server');
const READY = join(INSTALL_DIR, 'READY');
/** code-server writes a default config file on each start; keep it in the clone, not in ~/.config. */
export const CODE_SERVER_CONFIG = join(INSTALL_DIR, 'config.yaml');

function log(msg) {
  process.stderr.write(`[code-server] ${msg}\n`);
}

// node-gyp downloads Node's headers unless told where they are; that download is blocked here.
// Debian's nodejs ships them under /usr/include/node, so point it there unless npm already is.
const nodeHeaders = !process.env.npm_config_nodedir && existsSync('/usr/include/node/node.h') ? { npm_config_nodedir: '/usr' } : {};

function run(cmd, args, cwd, env = {}) {
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_unsafe_perm: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...nodeHeaders, ...env }, encoding: 'utf8' });
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
  if (!existsSync(join(INSTALL_DIR, 'package.json'))) writeFileSync(join(INSTALL_DIR, 'package.json'), JSON.stringify({ name: 'docs-assistant-code-server', private: true }, null, 2));

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
  run('npm', ['rebuild', '@parcel/watcher', '@vscode/deviceid', '@vscode/spdlog', 'kerberos', 'native-watchdog', 'node-pty'], vscode, { npm_config_yes: 'true' });

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
  writeFileSync(READY, `${version}\n`);
  log(`ready in ${((Date.now() - started) / 1000).toFixed(0)} s: ${version}`);
  return CODE_SERVER_BIN;
}

export function codeServerVersion() {
  return isCodeServerReady() ? readFileSync(READY, 'utf8').trim() : undefined;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    console.log(ensureCodeServer());
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
