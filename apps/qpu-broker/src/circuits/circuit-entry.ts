import type { EntryPointArgs } from '#qdc/circuits';
import type { CircuitEntryPointArgs } from '#qdc/contracts';

/** Which circuit of Python source a message means: its entry point and the arguments it is called with (parse options). */
export const entryOf = (msg: { entryPoint?: string; entryPointArgs?: CircuitEntryPointArgs }): { entryPoint?: string; entryPointArgs?: EntryPointArgs } => ({
  ...(msg.entryPoint === undefined ? {} : { entryPoint: msg.entryPoint }),
  // zod's JSON values are the front end's JSON arguments (numbers, strings, booleans, null, lists, objects).
  ...(msg.entryPointArgs === undefined ? {} : { entryPointArgs: msg.entryPointArgs as EntryPointArgs }),
});
