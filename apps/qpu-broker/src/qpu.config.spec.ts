import { loadQpuConfig } from './qpu.config.js';

/** SPEC §6 names the queue timeout `QDC_QPU_QUEUE_TIMEOUT`; `QDC_QPU_QUEUE_TIMEOUT_MS` is read as a deprecated alias. */
describe('loadQpuConfig: QDC_QPU_QUEUE_TIMEOUT', () => {
  const load = (env: NodeJS.ProcessEnv) => {
    const warnings: string[] = [];
    const config = loadQpuConfig(env, (m) => warnings.push(m));
    return { timeout: config.QDC_QPU_QUEUE_TIMEOUT, warnings };
  };

  it('defaults to 24 h without a warning', () => {
    expect(load({})).toEqual({ timeout: 86_400_000, warnings: [] });
  });

  it('reads the SPEC name (milliseconds)', () => {
    expect(load({ QDC_QPU_QUEUE_TIMEOUT: '4000' })).toEqual({ timeout: 4000, warnings: [] });
  });

  it('reads the old name with a deprecation warning', () => {
    expect(load({ QDC_QPU_QUEUE_TIMEOUT_MS: '5000' })).toEqual({
      timeout: 5000,
      warnings: ['QDC_QPU_QUEUE_TIMEOUT_MS is deprecated; set QDC_QPU_QUEUE_TIMEOUT (milliseconds, SPEC §6) instead — using QDC_QPU_QUEUE_TIMEOUT_MS=5000'],
    });
  });

  it('prefers the SPEC name when both are set and says the old one is ignored', () => {
    expect(load({ QDC_QPU_QUEUE_TIMEOUT: '4000', QDC_QPU_QUEUE_TIMEOUT_MS: '5000' })).toEqual({
      timeout: 4000,
      warnings: ['QDC_QPU_QUEUE_TIMEOUT_MS is deprecated and ignored: QDC_QPU_QUEUE_TIMEOUT=4000 is set'],
    });
  });

  it('refuses a value that is not a positive integer, naming the setting', () => {
    expect(() => load({ QDC_QPU_QUEUE_TIMEOUT: '24h' })).toThrow(/invalid QPU configuration: QDC_QPU_QUEUE_TIMEOUT: /);
    expect(() => load({ QDC_QPU_QUEUE_TIMEOUT_MS: '-1' })).toThrow(/invalid QPU configuration: QDC_QPU_QUEUE_TIMEOUT: /);
  });
});
