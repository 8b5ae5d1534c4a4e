import { seconds } from './duration.js';
import { UsageError, type Program } from './program.js';
import { publish } from './sdk.js';
import type { Settings } from './settings.js';

// `relay messages …` (docs: /cli, "Commands" and "Publishing from a script").

async function standardInput(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

export function messageCommands(program: Program, settings: Settings): void {
  program
    .command('messages publish <queue>', 'Publishes the JSON body given with --body or on standard input.')
    .option('--body <json>', 'The message body')
    .option('--delay <duration>', 'Wait this long before the message can be received (e.g. 10s)')
    .describe(async ([queue], options) => {
      const body = JSON.parse((options.get('body') as string | undefined) ?? (await standardInput()));
      const id = await publish(settings, queue!, body, {
        delaySeconds: seconds(options.get('delay')),
      });
      console.log(id);
    });

  program.command('messages peek <queue>', 'Shows messages without receiving them.').describe(async ([queue]) => {
    console.log(`Peeking at ${queue}`);
  });

  program
    .command('messages redrive <dlq>', 'Moves messages from a dead-letter queue back.')
    .option('--to <queue>', 'The queue to move them to')
    .describe(async ([dlq], options) => {
      if (typeof options.get('to') !== 'string') throw new UsageError('redrive needs --to QUEUE');
      console.log(`Moving messages from ${dlq} to ${options.get('to')}`);
    });
}
