import { jest } from '@jest/globals';
import { EventEmitter } from 'node:events';
import { DependencyUnavailable, describeConnectionError, logConnectionErrors } from './connection-errors.js';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 6379 });

describe(describeConnectionError.name, () => {
  it('names a refused connection with its address, and leaves other errors to the stack', () => {
    expect(describeConnectionError(refused)).toBe('connection refused 127.0.0.1:6379');
    expect(describeConnectionError(new TypeError('x is undefined'))).toBeUndefined();
  });

  it('keeps the URL a DependencyUnavailable was given', () => {
    const error = new DependencyUnavailable('NATS at nats://127.0.0.1:4222', Object.assign(new Error('connection refused'), { name: 'ConnectionError' }));
    expect(describeConnectionError(error)).toBe('NATS at nats://127.0.0.1:4222 is not answering (connection refused)');
  });
});

describe(logConnectionErrors.name, () => {
  const setup = () => {
    const emitter = new EventEmitter();
    const mocks = { logger: { warn: jest.fn() } };
    logConnectionErrors(emitter, mocks.logger, 'Redis', 60_000);
    return { sut: emitter, mocks };
  };

  it('logs one line per distinct error, without a stack, and handles the error event', () => {
    const { sut, mocks } = setup();
    sut.emit('error', refused);
    sut.emit('error', refused);
    sut.emit('error', new Error("READONLY You can't write against a read only replica.\nmore"));
    expect(mocks.logger.warn.mock.calls).toEqual([
      ['Redis: connection refused 127.0.0.1:6379; retrying'],
      ["Redis: READONLY You can't write against a read only replica.; retrying"],
    ]);
  });
});
