import { Logger } from '@nestjs/common';

/**
 * On SIGTERM/SIGINT Nest drains the service (enableShutdownHooks); this bounds the drain: past `graceMs` the process
 * exits anyway (code 1), before the orchestrator's SIGKILL. A job still running then is not lost: its lock expires
 * and BullMQ hands it to another worker.
 */
export function exitAfterGrace(name: string, graceMs: number): void {
  const arm = (signal: string): void => {
    new Logger(name).log(`${signal}: draining (at most ${graceMs} ms)`);
    setTimeout(() => {
      new Logger(name).error(`drain did not finish within ${graceMs} ms; exiting`);
      process.exit(1);
    }, graceMs).unref();
  };
  process.once('SIGTERM', arm);
  process.once('SIGINT', arm);
}
