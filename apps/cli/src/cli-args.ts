import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

/** A command line that does not fit the command: the message, then the command's usage, exit 2. */
export class UsageError extends Error {}

/** parseArgs (strict: unknown options are usage errors) with positionals. */
export function parseCommandLine<T extends ParseArgsOptionsConfig>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A whole number option within bounds, or undefined when not given. */
export function intOption(value: string | undefined, name: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${name} must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}; got '${value}'`);
  }
  return Number(value);
}

/** `--help` or `-h` before a `--`. */
export function asksForHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** Resolves once what was written to stdout is handed to the OS (before process.exit). */
export function flushStdout(): Promise<void> {
  return new Promise((resolve) => process.stdout.write('', () => resolve()));
}
