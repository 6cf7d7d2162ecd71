// `npm run test:unit`: the specs next to the code (services with mocks, libraries); no infrastructure, and not the
// `*.slow.spec.ts` ones — accuracy measured over generated data sets, routing trials, decoder thresholds (minutes;
// `npm run test:slow`). `npm test` runs every tier.
import base from './jest.config.js';

export default { ...base, testPathIgnorePatterns: [...base.testPathIgnorePatterns, '<rootDir>/test/', '\\.slow\\.spec\\.ts$'] };
