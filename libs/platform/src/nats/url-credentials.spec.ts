import { urlCredentials } from './nats.service.js';

describe(urlCredentials.name, () => {
  it('reads user and password from a nats:// URL (percent-decoded), and nothing from a URL without them', () => {
    expect(urlCredentials('nats://qdc-services:p%40ss_w-rd@nats:4222')).toEqual({ user: 'qdc-services', pass: 'p@ss_w-rd' });
    expect(urlCredentials('nats://a:b@h1:4222,nats://a:b@h2:4222')).toEqual({ user: 'a', pass: 'b' });
    expect(urlCredentials('nats://127.0.0.1:4222')).toEqual({});
    expect(urlCredentials('not a url')).toEqual({});
  });
});
