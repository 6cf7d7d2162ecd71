import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from '#qdc/platform';
import { startAllInOne } from './all-in-one.js';

/**
 * Every QDC service in this one process (the single-process mode; `npm start` runs the same in its own process).
 * SIGTERM or SIGINT drains them all (the gateway first) and exits 0, or 1 past QDC_SHUTDOWN_GRACE_MS.
 */
startAllInOne().then(
  (allInOne) => {
    const graceMs = loadConfig().QDC_SHUTDOWN_GRACE_MS;
    const onSignal = (signal: string): void => {
      new Logger('all-in-one').log(`${signal}: draining every service (at most ${graceMs} ms)`);
      setTimeout(() => {
        new Logger('all-in-one').error(`drain did not finish within ${graceMs} ms; exiting`);
        process.exit(1);
      }, graceMs).unref();
      void allInOne.stop().then(() => process.exit(0));
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  },
  (error: unknown) => {
    new Logger('all-in-one').error(`cannot start: ${(error as Error)?.message ?? error}; exiting`);
    process.exit(1);
  },
);
