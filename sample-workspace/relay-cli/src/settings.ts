import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Where the CLI's settings come from, later sources winning (docs: /configuration): the defaults
// shipped beside the CLI, then relay.yaml in the working directory, then environment variables.

export interface Settings {
  apiUrl: string;
  apiKey: string | undefined;
  project: string | undefined;
  visibilityTimeout: string;
  retention: string;
  maxReceiveCount: number;
  /** Client request timeout, in seconds. */
  timeoutSeconds: number;
}

/** The top-level `key: value` lines of a YAML file (what relay.defaults.yaml holds). */
function readFlatYaml(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^([a-z_]+):\s*(\S.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!.trim();
  }
  return out;
}

export function loadSettings(cwd: string, defaultsFile: string): Settings {
  const yaml = { ...readFlatYaml(defaultsFile), ...readFlatYaml(join(cwd, 'relay.yaml')) };
  return {
    apiUrl: process.env.RELAY_API_URL ?? yaml.api_url ?? 'https://api.acme-relay.dev',
    apiKey: process.env.RELAY_API_KEY,
    project: process.env.RELAY_PROJECT ?? yaml.project,
    visibilityTimeout: yaml.visibility_timeout ?? '',
    retention: yaml.retention ?? '',
    maxReceiveCount: Number(yaml.max_receive_count ?? 10),
    timeoutSeconds: Number(process.env.RELAY_TIMEOUT ?? 30),
  };
}
