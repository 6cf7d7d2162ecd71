// `npm run test:unit`: the specs next to the code (services with mocks, libraries); no infrastructure.
import base from './jest.config.js';

export default { ...base, testPathIgnorePatterns: [...base.testPathIgnorePatterns, '<rootDir>/test/'] };
