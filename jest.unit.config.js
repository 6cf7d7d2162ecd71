// `npm run test:unit`: the specs next to the code (services with mocks, libraries); no infrastructure, and not the
// `*.slow.spec.ts` ones (the base config leaves those to `npm run test:slow`).
import base from './jest.config.js';

// Every core (jest's default leaves one free, which on a 2-core machine ran the suites one at a time: 59 s → 30 s).
export default {
  ...base,
  testPathIgnorePatterns: [...base.testPathIgnorePatterns, '<rootDir>/test/'],
  maxWorkers: '100%',
};
