import { LabNodeConfigError, loadLabNodeEnv } from './lab-node.js';

describe('lab node environment', () => {
  it('reads the variables once: empty means unset, the time scale defaults to 1', () => {
    expect(loadLabNodeEnv({ NATS_URL: 'nats://lab:4222', NATS_USER: '', QDC_QPU_TIME_SCALE: '0.5' })).toEqual({
      NATS_URL: 'nats://lab:4222',
      QDC_QPU_TIME_SCALE: 0.5,
    });
    expect(loadLabNodeEnv({ QDC_QPU_TIME_SCALE: '' }).QDC_QPU_TIME_SCALE).toBe(1);
  });

  it('names the variable whose value is bad', () => {
    expect(() => loadLabNodeEnv({ QDC_QPU_TIME_SCALE: 'fast' })).toThrow(LabNodeConfigError);
    expect(() => loadLabNodeEnv({ QDC_QPU_TIME_SCALE: 'fast' })).toThrow(/^invalid environment:\n {2}QDC_QPU_TIME_SCALE: .* \(got 'fast'\)$/);
  });
});
