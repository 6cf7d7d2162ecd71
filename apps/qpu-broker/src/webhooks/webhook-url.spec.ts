import { RpcError } from '#qdc/contracts';
import { checkWebhookUrl, isAllowedAddress } from './webhook-url.js';

const strict = { allowLocalHttp: false, allowPrivateNetworks: false };
const local = { allowLocalHttp: true, allowPrivateNetworks: false };

function refusal(url: string, policy = strict): { message: string; details: unknown } {
  try {
    checkWebhookUrl(url, policy);
  } catch (error) {
    if (error instanceof RpcError && error.code === 'invalid_input') return { message: error.message, details: error.details };
    throw error;
  }
  throw new Error(`${url} was accepted`);
}

describe('webhook URL policy', () => {
  it('accepts public https URLs as they are normalised', () => {
    expect(checkWebhookUrl('https://hooks.example.org/qdc?token=abc', strict)).toBe('https://hooks.example.org/qdc?token=abc');
    expect(checkWebhookUrl('HTTPS://Example.ORG', strict)).toBe('https://example.org/');
  });

  it('refuses plain http, other schemes, credentials and fragments, naming what was expected', () => {
    expect(refusal('http://hooks.example.org/x')).toEqual({
      message: 'expected an https:// URL; got http:// (plain http is accepted only for localhost, and only where the deployment allows it)',
      details: { loc: ['body', 'url'], type: 'url_scheme' },
    });
    expect(refusal('ftp://example.org').message).toBe("expected an https:// URL; got 'ftp:'");
    expect(refusal('not a url').message).toBe("expected an absolute https:// URL; got 'not a url'");
    expect(refusal('https://user:pw@example.org').message).toMatch(/^expected a URL without user:password/);
    expect(refusal('https://example.org/#x').message).toBe('expected a URL without a #fragment');
  });

  it('allows http://localhost and 127.0.0.1 only with QDC_WEBHOOK_ALLOW_LOCAL_HTTP', () => {
    expect(refusal('http://127.0.0.1:9000/hook').message).toBe(
      'expected an https:// URL; got http://127.0.0.1:9000 (this deployment does not allow local http receivers: QDC_WEBHOOK_ALLOW_LOCAL_HTTP)',
    );
    expect(checkWebhookUrl('http://127.0.0.1:9000/hook', local)).toBe('http://127.0.0.1:9000/hook');
    expect(checkWebhookUrl('http://localhost:9000/hook', local)).toBe('http://localhost:9000/hook');
    expect(checkWebhookUrl('http://[::1]:9000/hook', local)).toBe('http://[::1]:9000/hook');
  });

  it('refuses private, loopback and link-local literal addresses (SSRF) unless private networks are allowed', () => {
    for (const host of ['10.1.2.3', '192.168.0.10', '172.20.0.1', '169.254.169.254', '127.0.0.1', '[fd00::1]', '[::ffff:10.0.0.1]', '0.0.0.0']) {
      expect([host, refusal(`https://${host}/x`).message]).toEqual([host, expect.stringMatching(/^expected a public address; .* is a private/)]);
    }
    expect(checkWebhookUrl('https://10.1.2.3/x', { allowLocalHttp: false, allowPrivateNetworks: true })).toBe('https://10.1.2.3/x');
  });

  it('checks resolved addresses the same way (loopback allowed with local receivers)', () => {
    expect(isAllowedAddress('93.184.216.34', strict)).toBe(true);
    expect(isAllowedAddress('2606:2800:220:1:248:1893:25c8:1946', strict)).toBe(true);
    expect(isAllowedAddress('10.0.0.5', strict)).toBe(false);
    expect(isAllowedAddress('::ffff:192.168.1.1', strict)).toBe(false);
    expect(isAllowedAddress('127.0.0.1', strict)).toBe(false);
    expect(isAllowedAddress('127.0.0.1', local)).toBe(true);
    expect(isAllowedAddress('10.0.0.5', local)).toBe(false);
    expect(isAllowedAddress('not-an-ip', local)).toBe(false);
  });
});
