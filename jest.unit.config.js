// `npm run test:unit`: the specs next to the code (services with mocks, libraries); no infrastructure, and not the
// `*.slow.spec.ts` ones — accuracy measured over generated data sets, routing trials, decoder thresholds (minutes;
// `npm run test:slow`). `npm test` runs every tier.
import base from './jest.config.js';

// Every core (jest's default leaves one free, which on a 2-core machine ran the suites one at a time: 59 s → 30 s).
export default {
  ...base,
  testPathIgnorePatterns: [...base.testPathIgnorePatterns, '<rootDir>/test/', '\\.slow\\.spec\\.ts$'],
  maxWorkers: '100%',
};
