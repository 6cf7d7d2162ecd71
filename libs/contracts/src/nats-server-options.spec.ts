import { natsServerOptions } from './subjects.js';

describe(natsServerOptions.name, () => {
  it('takes user and password out of the server URLs', () => {
    expect(natsServerOptions('nats://qdc-services:p%40ss_w-rd@nats:4222')).toEqual({ servers: ['nats://nats:4222'], user: 'qdc-services', pass: 'p@ss_w-rd' });
    expect(natsServerOptions('nats://a:b@h1:4222, nats://a:b@h2:4222')).toEqual({ servers: ['nats://h1:4222', 'nats://h2:4222'], user: 'a', pass: 'b' });
    expect(natsServerOptions('nats://127.0.0.1:4222')).toEqual({ servers: ['nats://127.0.0.1:4222'] });
    expect(natsServerOptions('127.0.0.1:4222')).toEqual({ servers: ['127.0.0.1:4222'] });
  });

  it('keeps the port when the password starts with digits (nats.js read the first `:<digits>` as the port)', () => {
    expect(natsServerOptions('nats://qdc-services:4YaN3tt_x-1@127.0.0.1:33079')).toEqual({
      servers: ['nats://127.0.0.1:33079'],
      user: 'qdc-services',
      pass: '4YaN3tt_x-1',
    });
  });
});
