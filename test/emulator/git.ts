import { execFile } from 'node:child_process';

// The `git` CLI for the emulator and its test helpers: always an argument array, never a shell
// string, with the user's own Git configuration kept out so that a global `init.defaultBranch`,
// a hook path or a credential helper cannot change what the emulator's repository holds.

const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

const GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
};

/** Runs git in `cwd`; resolves with its standard output, rejects with its standard error. */
export function git(cwd: string, args: readonly string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', args, { cwd, env: GIT_ENV, maxBuffer: MAX_OUTPUT_BYTES, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`git ${args[0]} failed: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
    child.stdin?.end(input);
  });
}
