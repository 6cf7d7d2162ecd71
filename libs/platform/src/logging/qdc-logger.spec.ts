import { Logger } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import { QdcLogger, redactText } from './qdc-logger.js';
import { withRequestId } from './request-context.js';

/** A production (JSON) logger writing into an array of parsed lines. */
function newQdcLogger(level: 'log' | 'debug' = 'log') {
  const lines: Record<string, unknown>[] = [];
  const destination: DestinationStream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
  const sut = new QdcLogger({ LOG_LEVEL: level, NODE_ENV: 'production' }, 'results', destination);
  return { sut, mocks: { lines } };
}

describe(QdcLogger.name, () => {
  afterEach(() => Logger.overrideLogger(true));

  it('writes JSON with service, context and the current request id, through Nest’s Logger', async () => {
    const { sut, mocks } = newQdcLogger();
    Logger.overrideLogger(sut);
    const logger = new Logger('ResultsService');
    logger.log('outside a request');
    await withRequestId('req-42', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.warn('inside, after an await');
    });
    expect(mocks.lines).toEqual([
      expect.objectContaining({ level: 30, service: 'results', context: 'ResultsService', msg: 'outside a request' }),
      expect.objectContaining({ level: 40, service: 'results', context: 'ResultsService', requestId: 'req-42', msg: 'inside, after an await' }),
    ]);
    expect(mocks.lines[0]).not.toHaveProperty('requestId');
  });

  it('keeps the stack of an error apart from its message', () => {
    const { sut, mocks } = newQdcLogger();
    sut.error('job failed', 'Error: boom\n    at x', 'InferenceProcessor');
    expect(mocks.lines[0]).toMatchObject({ level: 50, msg: 'job failed', stack: 'Error: boom\n    at x', context: 'InferenceProcessor' });
  });

  it('drops levels below LOG_LEVEL', () => {
    const { sut, mocks } = newQdcLogger('log');
    sut.debug('noise', 'X');
    expect(mocks.lines).toEqual([]);
  });

  it('redacts keys, bearer tokens and passwords, in fields and in text', () => {
    const { sut, mocks } = newQdcLogger();
    sut.log({ msg: 'request', headers: { authorization: 'Bearer coda_abcdefgh12345678' }, tokenHash: 'ff' });
    sut.log('retrying with Authorization: Bearer coda_abcdefgh12345678 against postgresql://qdc:s3cret@db:5432/qdc');
    const text = JSON.stringify(mocks.lines);
    expect(text).not.toContain('coda_abcdefgh12345678');
    expect(text).not.toContain('s3cret');
    expect(mocks.lines[0]).toMatchObject({ headers: { authorization: '[redacted]' }, tokenHash: '[redacted]' });
    expect(mocks.lines[1]!.msg).toBe('retrying with Authorization: Bearer [redacted] against postgresql://qdc:[redacted]@db:5432/qdc');
  });

  it('redacts an API key that is not behind "Bearer"', () => {
    expect(redactText('created coda_0123456789abcdef for lab')).toBe('created [redacted] for lab');
  });
});
