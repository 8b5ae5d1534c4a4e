// What the code-server drivers (first-glyph-driver.ts, soak-driver.ts) share as child processes of
// their benchmarks: the line that names the code-server they drove, and how they end: their
// result as one line of JSON on stdout (the parent reads the last line), or the error on stderr.

/** `code-server 4.139.1 (VS Code 1.139.1)`: the one the harness installed and ran. */
export async function codeServerLabel(): Promise<string> {
  const out = await import('../scripts/vscode/install-code-server.mjs');
  const target = out.ensureCodeServerTarget(out.selectedCodeServerVersion());
  const code = /with Code (\S+)/.exec(target.printed ?? '')?.[1] ?? '?';
  return `code-server ${target.version} (VS Code ${code})`;
}

/** Runs a driver's `main` and exits: 0 with its result as the last line of stdout, 1 with the error. */
export function runDriver(main: () => Promise<unknown>): void {
  main().then(
    (out) => {
      process.stdout.write(`${JSON.stringify(out)}\n`);
      process.exit(0);
    },
    (e: unknown) => {
      console.error(e instanceof Error ? e.stack : String(e));
      process.exit(1);
    },
  );
}
