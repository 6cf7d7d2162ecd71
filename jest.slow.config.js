// `npm run test:slow`: the library specs that measure over generated data sets (`*.slow.spec.ts`); no infrastructure.
import base from './jest.config.js';

export default { ...base, testMatch: ['<rootDir>/libs/**/*.slow.spec.ts'], testPathIgnorePatterns: ['/node_modules/', '/dist/'] };
