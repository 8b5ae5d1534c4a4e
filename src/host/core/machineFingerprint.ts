// The `fingerprint: "machine"` setting sends a stable, anonymous id: a hash of VS Code's machine
// id, never the id itself. Web Crypto, not node:crypto, so the same code runs in the browser's
// extension host (github.dev, vscode.dev); the value is the same hex as the Node hash gave, so
// an upgrade does not change who the service thinks is asking.

let cached: { machineId: string; fingerprint: Promise<string> } | undefined;

/** The first 32 hex digits of SHA-256("docs-assistant:" + machineId), computed once per machine id. */
export function machineFingerprint(machineId: string): Promise<string> {
  if (cached?.machineId !== machineId) cached = { machineId, fingerprint: digest(machineId) };
  return cached.fingerprint;
}

async function digest(machineId: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`docs-assistant:${machineId}`)));
  let hex = '';
  for (const b of bytes.subarray(0, 16)) hex += b.toString(16).padStart(2, '0');
  return hex;
}
