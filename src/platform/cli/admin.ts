import 'reflect-metadata';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/orm.js';
import { type AdminCommand, parseArgs, UsageError } from './command.js';

function help(commands: AdminCommand[]): string {
  return ['Usage: npm run admin -- <command> [options]', '', 'Commands:']
    .concat(commands.map((c) => `  ${c.usage}\n      ${c.summary}`))
    .join('\n');
}

/** One command's usage, summary and flags, for `<command> --help`. */
function commandHelp(command: AdminCommand): string {
  const flags = Object.entries(command.options ?? {}).map(
    ([flag, option]) => `  --${flag}${option.type === 'string' ? ' <value>' : ''}`,
  );
  return [
    `Usage: npm run admin -- ${command.usage}`,
    '',
    command.summary,
    '',
    'Options:',
    ...flags,
    '  --json',
    '  --help',
  ].join('\n');
}

/**
 * Runs one of `commands` (the features' list, src/features/commands.ts) against DATABASE_URL (migrating
 * it first) and returns the exit code: 0 done, 2 bad arguments, 1 anything else.
 */
export async function runAdmin(
  commands: AdminCommand[],
  argv: string[],
  io: { out(line: string): void; err(line: string): void; progress?(line: string): void },
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help') {
    io.out(help(commands));
    return name ? 0 : 2;
  }
  const command = commands.find((c) => c.name === name);
  // Errors are one JSON line under --json, so a script reads them as it reads answers.
  const asJson = rest.includes('--json');
  const fail = (code: 'usage' | 'config' | 'failed', message: string, text: string) =>
    io.err(asJson ? JSON.stringify({ error: { code, message, ...(command ? { usage: command.usage } : {}) } }) : text);
  if (!command) {
    fail('usage', `Unknown command "${name}"`, `Unknown command "${name}".\n\n${help(commands)}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(commandHelp(command));
    return 0;
  }
  let db: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    const config = loadConfig(env);
    const args = parseArgs(rest, command.options);
    db = await openDatabase(config.databaseUrl);
    const json = args.flags.get('json') === true;
    await command.run(args, { db, out: io.out, json, ...(io.progress && !json ? { progress: io.progress } : {}) });
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      fail('usage', err.message, `${command.name}: ${err.message}\nUsage: npm run admin -- ${command.usage}`);
      return 2;
    }
    if (err instanceof ConfigError) {
      fail('config', err.message, err.message);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    fail('failed', message, `${command.name} failed: ${message}`);
    return 1;
  } finally {
    await db?.close();
  }
}
