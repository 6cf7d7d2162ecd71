import type { LoggerService, LogLevel } from '@nestjs/common';
import { pino, type DestinationStream, type Logger as Pino } from 'pino';
import type { QdcConfig } from '../config/config.js';
import { currentRequestId } from './request-context.js';

const PINO_LEVEL: Record<QdcConfig['LOG_LEVEL'], string> = { error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' };
const NEST_LEVELS: readonly LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];

/** Structured fields whose values never reach a log (pino redaction paths). */
export const REDACTED_PATHS = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  'token',
  '*.token',
  'tokenHash',
  'apiKey',
  'pepper',
  'QDC_API_KEY_PEPPER',
  'password',
];
/** Secrets that may appear inside message text: bearer tokens, API keys, passwords in connection strings. */
const SECRET_TEXT: [RegExp, string][] = [
  [/(Bearer\s+)\S+/gi, '$1[redacted]'],
  [/\bcoda_[A-Za-z0-9_-]{8,}/g, '[redacted]'],
  [/(\/\/[^:@/\s]+:)[^@/\s]+@/g, '$1[redacted]@'],
];

export function redactText(text: string): string {
  return SECRET_TEXT.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
}

/** Development output: one plain line per entry (time, level, service, context, request id, message). */
function plainLines(out: NodeJS.WritableStream): DestinationStream {
  const names: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
  return {
    write(line: string) {
      const { time, level, service, context, requestId, msg, stack } = JSON.parse(line) as Record<string, string | number | undefined>;
      const at = new Date(Number(time)).toISOString().slice(11, 23);
      out.write(
        `${at} ${(names[Number(level)] ?? level)!.toString().padEnd(5)} ${service} [${context ?? '-'}]${requestId ? ` (${requestId})` : ''} ${msg}${stack ? `\n${stack}` : ''}\n`,
      );
    },
  };
}

/**
 * The logger of every service, installed as Nest's logger so that `new Logger(Thing.name)` anywhere writes through
 * it: JSON lines (pino) with service, context and the current request id in production, plain lines in development;
 * secrets redacted in both.
 */
export class QdcLogger implements LoggerService {
  readonly pino: Pino;

  /** `service`: the service's name, or (single-process mode) a function that says which service is writing. */
  constructor(config: Pick<QdcConfig, 'LOG_LEVEL' | 'NODE_ENV'>, service: string | (() => string), destination?: DestinationStream) {
    const json = config.NODE_ENV === 'production';
    const serviceNow = typeof service === 'function' ? service : undefined;
    this.pino = pino(
      {
        level: PINO_LEVEL[config.LOG_LEVEL],
        base: serviceNow ? {} : { service },
        messageKey: 'msg',
        redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
        mixin: () => {
          const requestId = currentRequestId();
          const fields: Record<string, string> = serviceNow ? { service: serviceNow() } : {};
          if (requestId) fields.requestId = requestId;
          return fields;
        },
      },
      destination ?? (json ? pino.destination({ dest: 1, sync: false }) : plainLines(process.stdout)),
    );
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    // Nest passes (message, stack?, context?); a lone second string is the context.
    const [stack, context] = params.length >= 2 ? params : [undefined, params[0]];
    this.write('error', message, context === undefined ? [] : [context], typeof stack === 'string' ? stack : undefined);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  setLogLevels(levels: LogLevel[]): void {
    const lowest = NEST_LEVELS.filter((l) => levels.includes(l)).at(-1) ?? 'error';
    this.pino.level = PINO_LEVEL[lowest as QdcConfig['LOG_LEVEL']] ?? 'info';
  }

  private write(level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal', message: unknown, params: unknown[], stack?: string): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const context = typeof params.at(-1) === 'string' ? (params.at(-1) as string) : undefined;
    const fields: Record<string, unknown> = context ? { context } : {};
    if (stack) fields.stack = redactText(stack);
    if (message instanceof Error) {
      fields.stack = redactText(message.stack ?? '');
      this.pino[level](fields, redactText(message.message));
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level]({ ...fields, ...(message as object) });
    } else {
      this.pino[level](fields, redactText(String(message)));
    }
  }
}
