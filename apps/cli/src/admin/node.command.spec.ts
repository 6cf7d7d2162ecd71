import { UsageError } from '../cli-args.js';
import { run } from './node.command.js';

describe('qdc node', () => {
  it('stops with the variable named when a value is bad (a usage error, before any file is read or connection made)', async () => {
    const error = await run(['start', '--device', '/nonexistent/device.json'], { QDC_QPU_TIME_SCALE: 'fast' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/^invalid environment:\n {2}QDC_QPU_TIME_SCALE: .* \(got 'fast'\)$/);
  });

  it('needs start and --device', async () => {
    await expect(run(['start'], {})).rejects.toThrow('node start needs --device <device.json>');
    await expect(run(['stop', '--device', 'd.json'], {})).rejects.toThrow('unknown command node stop');
  });
});
