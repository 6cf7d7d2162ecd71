import type { EntryPointArgs } from '#qdc/circuits';
import type { CircuitEntryPointArgs } from '#qdc/contracts';

/** Which circuit of Python source a message means: its entry point and the arguments it is called with (parse options). */
export const entryOf = (msg: { entryPoint?: string; entryPointArgs?: CircuitEntryPointArgs }): { entryPoint?: string; entryPointArgs?: EntryPointArgs } => ({
  ...(msg.entryPoint === undefined ? {} : { entryPoint: msg.entryPoint }),
  // zod's JSON values are the front end's JSON arguments (numbers, strings, booleans, null, lists, objects).
  ...(msg.entryPointArgs === undefined ? {} : { entryPointArgs: msg.entryPointArgs as EntryPointArgs }),
});

/**
 * Conversion and resource counting keep unbound parameters free (OpenQASM 3 `input float`, `Parameter`,
 * `sympy.Symbol`; an entry point's missing arguments become parameters of their names); simulation refuses them.
 */
export const keepFree = (msg: Parameters<typeof entryOf>[0]) => ({ ...entryOf(msg), freeParameters: true });
