// A tiny command-line parser in the style of commander: `.command('queues create <name>')`
// declares a sub-command and `.option('--retention <duration>', 'help')` a flag that takes a value
// (or, without `<…>`, a switch). Small on purpose: the sample has no dependencies to install.

export type Options = Map<string, string | true>;
export type Action = (args: string[], options: Options) => Promise<void>;

interface OptionSpec {
  flag: string;
  takesValue: boolean;
  help: string;
}

export class Command {
  readonly options: OptionSpec[] = [];
  action: Action = async () => {};

  constructor(
    readonly words: string[],
    readonly args: string[],
    readonly help: string,
  ) {}

  option(spec: string, help: string): this {
    const [flag = '', value] = spec.split(' ');
    this.options.push({ flag, takesValue: value !== undefined, help });
    return this;
  }

  describe(action: Action): this {
    this.action = action;
    return this;
  }
}

export class Program {
  readonly commands: Command[] = [];
  readonly globalOptions: OptionSpec[] = [
    { flag: '--project', takesValue: true, help: 'Project that queues belong to' },
    { flag: '--output', takesValue: true, help: 'json or table' },
    { flag: '--help', takesValue: false, help: 'Show help' },
  ];

  command(usage: string, help: string): Command {
    const parts = usage.split(' ');
    const words = parts.filter((p) => !p.startsWith('<'));
    const command = new Command(words, parts.slice(words.length), help);
    this.commands.push(command);
    return command;
  }

  /** The command `argv` names, its positional arguments and its options; throws on a usage error. */
  parse(argv: string[]): { command: Command; args: string[]; options: Options } {
    const command = this.commands.filter((c) => c.words.every((w, i) => argv[i] === w)).sort((a, b) => b.words.length - a.words.length)[0];
    if (!command) throw new UsageError(`Unknown command: ${argv.slice(0, 2).join(' ') || '(none)'}`);
    const known = [...this.globalOptions, ...command.options];
    const args: string[] = [];
    const options: Options = new Map();
    const rest = argv.slice(command.words.length);
    for (let i = 0; i < rest.length; i++) {
      const word = rest[i]!;
      if (!word.startsWith('--')) {
        args.push(word);
        continue;
      }
      const spec = known.find((o) => o.flag === word);
      if (!spec) throw new UsageError(`Unknown flag ${word} for relay ${command.words.join(' ')}`);
      const value = spec.takesValue ? rest[++i] : true;
      if (value === undefined) throw new UsageError(`${word} needs a value`);
      options.set(word.slice(2), value);
    }
    if (args.length < command.args.length) throw new UsageError(`Usage: relay ${command.words.join(' ')} ${command.args.join(' ')}`);
    return { command, args, options };
  }

  helpText(): string {
    const lines = ['Usage: relay <command> [flags]', ''];
    for (const c of this.commands) {
      lines.push(`  relay ${[...c.words, ...c.args].join(' ')}  ${c.help}`);
      for (const o of c.options) lines.push(`      ${o.flag}  ${o.help}`);
    }
    lines.push('', 'Every command accepts:', ...this.globalOptions.map((o) => `  ${o.flag}  ${o.help}`));
    return lines.join('\n');
  }
}

export class UsageError extends Error {}
