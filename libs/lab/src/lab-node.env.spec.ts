import { jest } from '@jest/globals';
import { loadLabNodeEnv, runNodeCommand } from './lab-node.js';

describe('lab node environment', () => {
  it('reads the variables once: empty means unset, the time scale defaults to 1', () => {
    expect(loadLabNodeEnv({ NATS_URL: 'nats://lab:4222', NATS_USER: '', QDC_QPU_TIME_SCALE: '0.5' })).toEqual({
      NATS_URL: 'nats://lab:4222',
      QDC_QPU_TIME_SCALE: 0.5,
    });
    expect(loadLabNodeEnv({ QDC_QPU_TIME_SCALE: '' }).QDC_QPU_TIME_SCALE).toBe(1);
  });

  it('stops with the variable named when a value is bad (exit 2, before any file is read or connection made)', async () => {
    const errors: string[] = [];
    const spy = jest.spyOn(console, 'error').mockImplementation((message: unknown) => void errors.push(String(message)));
    try {
      expect(await runNodeCommand(['start', '--device', '/nonexistent/device.json'], { QDC_QPU_TIME_SCALE: 'fast' })).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(errors[0]).toMatch(/^invalid environment:\n {2}QDC_QPU_TIME_SCALE: .* \(got 'fast'\)$/);
  });
});
