import { jest } from '@jest/globals';
import { HttpException, Logger, NotFoundException, type ArgumentsHost } from '@nestjs/common';
import { RpcError } from '#qdc/contracts';
import { CodaExceptionFilter } from '../coda/coda-exception.filter.js';
import { ApiError, invalid } from './api-errors.js';
import { RETRY_AFTER_SECONDS, ApiExceptionFilter } from './exception.filter.js';

/** A filter with a recording Fastify reply and a silent, recording logger. */
function newFilter<T extends ApiExceptionFilter>(Filter: new () => T) {
  const reply = { status: jest.fn(), send: jest.fn(), header: jest.fn() };
  reply.status.mockReturnValue(reply);
  reply.header.mockReturnValue(reply);
  const request = { id: 'req-5', method: 'POST', url: '/v0/models' };
  const host = { switchToHttp: () => ({ getResponse: () => reply, getRequest: () => request }) } as unknown as ArgumentsHost;
  const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  const sut = new Filter();
  const answer = (exception: unknown) => {
    sut.catch(exception, host);
    return { status: reply.status.mock.calls.at(-1)![0], body: reply.send.mock.calls.at(-1)![0] as Record<string, unknown> };
  };
  return { sut, mocks: { reply, error }, answer };
}

describe(ApiExceptionFilter.name, () => {
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['an ApiError', new ApiError(404, 'Model not found'), 404, { detail: 'Model not found' }],
    [
      'a validation failure',
      invalid(['body', 'model'], 'Field required', 'missing'),
      422,
      { detail: [{ loc: ['body', 'model'], msg: 'Field required', type: 'missing' }] },
    ],
    ['an unknown route', new NotFoundException(), 404, { detail: 'Not Found' }],
    ['an HttpException', new HttpException('Payload Too Large', 413), 413, { detail: 'Payload Too Large' }],
    [
      'invalid_input from a service',
      new RpcError('invalid_input', 'expected finite values; got NaN', { type: 'value_error' }),
      422,
      { detail: [{ loc: ['body', 'data'], msg: 'expected finite values; got NaN', type: 'value_error' }] },
    ],
    ['not_found from a service', new RpcError('not_found', 'Model result not found'), 404, { detail: 'Model result not found' }],
    ['forbidden from a service', new RpcError('forbidden', 'no'), 403, { detail: 'no' }],
    ['a Fastify body limit', { statusCode: 413, message: 'request file too large' }, 413, { detail: 'Request body too large: request file too large' }],
    [
      'malformed JSON',
      { statusCode: 400, message: 'Unexpected token' },
      422,
      { detail: [{ loc: ['body'], msg: 'Unexpected token', type: 'value_error.body' }] },
    ],
  ])('answers %s with its status and FastAPI-style body', (_, exception, status, body) => {
    const { answer, mocks } = newFilter(ApiExceptionFilter);
    expect(answer(exception)).toEqual({ status, body });
    expect(mocks.error).not.toHaveBeenCalled();
  });

  it('sends the headers an ApiError carries (WWW-Authenticate, Retry-After)', () => {
    const { answer, mocks } = newFilter(ApiExceptionFilter);
    answer(new ApiError(429, 'Rate limit exceeded; retry in 3 s', { 'Retry-After': '3' }));
    expect(mocks.reply.header).toHaveBeenCalledWith('Retry-After', '3');
  });

  it('tells when to retry a 503 (a service restarting, NATS reconnecting), and not a 500 or 504', () => {
    for (const [exception, retryAfter] of [
      [new RpcError('unavailable', 'NATS connection lost while x.v1 was in flight (retry shortly)'), true],
      [new RpcError('timeout', 'too slow'), false],
      [new Error('boom'), false],
    ] as const) {
      const { answer, mocks } = newFilter(ApiExceptionFilter);
      answer(exception);
      expect(mocks.reply.header.mock.calls.some(([name]) => name === 'Retry-After')).toBe(retryAfter);
      if (retryAfter) expect(mocks.reply.header).toHaveBeenCalledWith('Retry-After', String(RETRY_AFTER_SECONDS));
    }
  });

  it.each([
    ['an unexpected error', new TypeError('x is undefined'), 500, 'Internal Server Error'],
    ['unavailable from a service', new RpcError('unavailable', 'no service is answering'), 503, 'Service Unavailable'],
    ['timeout from a service', new RpcError('timeout', 'too slow'), 504, 'Gateway Timeout'],
  ])('answers %s with its 5xx status and only an error id, which it logs with the cause', (_, exception, status, detail) => {
    const { answer, mocks } = newFilter(ApiExceptionFilter);
    const { status: sent, body } = answer(exception);
    expect(sent).toBe(status);
    expect(body).toEqual({ detail, error_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(String(mocks.error.mock.calls[0]![0])).toContain(`error_id=${body.error_id}`);
    expect(JSON.stringify(body)).not.toContain(exception.message);
    if (status === 503) expect(mocks.reply.header).toHaveBeenCalledWith('Retry-After', '2');
    else expect(mocks.reply.header).not.toHaveBeenCalled();
  });
});

describe(CodaExceptionFilter.name, () => {
  afterEach(() => jest.restoreAllMocks());

  it('answers {success: false, error} with FastAPI’s detail list (at the body) and the line and construct of a parse error', () => {
    const { answer } = newFilter(CodaExceptionFilter);
    const parseError = new RpcError('invalid_input', "unsupported call 'os.system'", { line: 3, construct: 'os.system' });
    expect(answer(parseError)).toEqual({
      status: 422,
      body: {
        success: false,
        error: "unsupported call 'os.system'",
        detail: [{ loc: ['body'], msg: "unsupported call 'os.system'", type: 'value_error' }],
        line: 3,
        construct: 'os.system',
      },
    });
  });

  it('keeps the field a body check located', () => {
    const { answer } = newFilter(CodaExceptionFilter);
    const bad = new RpcError('invalid_input', 'shots must be from 10 to 10000', { loc: ['body', 'shots'], type: 'less_than_equal' });
    expect(answer(bad).body).toEqual({
      success: false,
      error: 'shots must be from 10 to 10000',
      detail: [{ loc: ['body', 'shots'], msg: 'shots must be from 10 to 10000', type: 'less_than_equal' }],
    });
  });

  it('keeps a plain message as detail for errors that are not validation (404, 409)', () => {
    const { answer } = newFilter(CodaExceptionFilter);
    expect(answer(new RpcError('not_found', "unknown job_id 'x'"))).toEqual({
      status: 404,
      body: { success: false, error: "unknown job_id 'x'", detail: "unknown job_id 'x'" },
    });
  });

  it('keeps the status and error id of a server error', () => {
    const { answer } = newFilter(CodaExceptionFilter);
    const { status, body } = answer(new Error('boom'));
    expect(status).toBe(500);
    expect(body).toEqual({ success: false, error: 'Internal Server Error', detail: 'Internal Server Error', error_id: expect.any(String) });
  });
});
