import { ConfigError, DEVELOPMENT_API_KEY_PEPPER, developmentSecrets, loadConfig } from './config.js';

describe(loadConfig.name, () => {
  it('fills development defaults outside production', () => {
    const config = loadConfig({});
    expect(config.NODE_ENV).toBe('development');
    expect(config.QDC_API_KEY_PEPPER).toBe(DEVELOPMENT_API_KEY_PEPPER);
    expect(developmentSecrets(config)).toEqual([expect.stringContaining('QDC_API_KEY_PEPPER')]);
  });

  it.each([
    ['unset', {}],
    ['the development value', { QDC_API_KEY_PEPPER: DEVELOPMENT_API_KEY_PEPPER }],
    ['the deploy placeholder', { QDC_API_KEY_PEPPER: 'REPLACE_ME_with_openssl_rand_hex_32' }],
  ])('refuses production with the pepper %s, naming the variable', (_, env) => {
    expect(() => loadConfig({ NODE_ENV: 'production', ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', ...env })).toThrow(/QDC_API_KEY_PEPPER/);
  });

  it('starts production with a real secret and reports nothing unsafe', () => {
    const config = loadConfig({ NODE_ENV: 'production', QDC_API_KEY_PEPPER: 'a3f1c0ffee5eed0123456789abcdef01' });
    expect(developmentSecrets(config)).toEqual([]);
  });

  it('names every invalid setting with what was expected', () => {
    expect(() => loadConfig({ PORT: 'eighty', QDC_NAMESPACE: 'Bad_NS' })).toThrow(/PORT[\s\S]*QDC_NAMESPACE: lower-case letters, digits and dashes/);
  });
});
