#!/usr/bin/env node
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { messageCommands } from './messageCommands.js';
import { Program, UsageError } from './program.js';
import { queueCommands } from './queueCommands.js';
import { RelayError } from './sdk.js';
import { loadSettings } from './settings.js';

// `relay`: exits with 0 on success, 1 on a usage error, 2 when the API refused the request and
// 3 on a network error (docs: /cli, "Exit codes").

const here = dirname(fileURLToPath(import.meta.url));
const settings = loadSettings(process.cwd(), join(here, '..', 'relay.defaults.yaml'));
const program = new Program();

program
  .command('login', 'Stores the API key in the system keychain.')
  .option('--key <key>', 'The API key')
  .describe(async () => {
    console.log('This sample keeps no keychain: set RELAY_API_KEY instead.');
  });
queueCommands(program, settings);
messageCommands(program, settings);
program.command('config migrate <file>', 'Converts a v1 relay.json to relay.yaml.').describe(async ([file]) => {
  console.log(`Would convert ${file} to relay.yaml`);
});
program.command('version', 'Prints the CLI version.').describe(async () => {
  console.log('relay 2.3.0');
});

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes('--help')) {
    console.log(program.helpText());
    return 0;
  }
  try {
    const { command, args, options } = program.parse(argv);
    await command.action(args, options);
    return 0;
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    return e instanceof UsageError ? 1 : e instanceof RelayError ? 2 : 3;
  }
}

process.exitCode = await main(process.argv.slice(2));
