import { seconds } from './duration.js';
import { UsageError, type Program } from './program.js';
import { createQueue } from './sdk.js';
import type { Settings } from './settings.js';

// `relay queues …` (docs: /cli, "Commands"). A new queue takes its visibility timeout and its
// retention from the settings (relay.defaults.yaml, relay.yaml) unless a flag says otherwise.

export function queueCommands(program: Program, settings: Settings): void {
  program.command('queues list', 'Lists the queues of the project.').describe(async () => {
    console.log(`Queues of ${settings.project ?? 'the default project'}`);
  });

  program
    .command('queues create <name>', 'Creates a queue.')
    .option('--retention <duration>', 'How long an unacknowledged message is kept (1m to 14d)')
    .option('--visibility-timeout <duration>', 'How long a received message stays hidden (1s to 12h)')
    .option('--dlq <queue>', 'Queue that takes messages that failed too often')
    .describe(async ([name], options) => {
      await createQueue(settings, name!, {
        retentionSeconds: seconds(options.get('retention') ?? settings.retention),
        visibilityTimeoutSeconds: seconds(options.get('visibility-timeout') ?? settings.visibilityTimeout),
        maxReceiveCount: settings.maxReceiveCount,
        deadLetterQueue: options.get('dlq') as string | undefined,
      });
      console.log(`Created ${name}`);
    });

  program
    .command('queues delete <name>', 'Deletes a queue and every message in it.')
    .option('--yes', 'Do not ask first')
    .describe(async ([name], options) => {
      if (!options.has('yes')) throw new UsageError(`Deleting ${name} removes every message in it: run again with --yes`);
      console.log(`Deleted ${name}`);
    });
}
