// Jest runs the TypeScript sources as native ES modules (NestJS 12 is ESM-only),
// transformed by swc with legacy decorators + metadata, like tsc does for the build.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    // The workspace package from its source, like the libraries.
    '^@qdc/client$': '<rootDir>/packages/client/src/index.ts',
    // Subpath entry points (evaluation, training) before the library barrels.
    '^#qdc/characterization/(.*)$': '<rootDir>/libs/characterization/src/$1/index.ts',
    '^#qdc/(.*)$': '<rootDir>/libs/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/{apps,libs,packages,scripts,test}/**/*.spec.ts'],
  // `*.slow.spec.ts` (accuracy over generated data sets: ~20 min on 2 cores) run with `npm run test:slow`, not `npm test`.
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '\\.slow\\.spec\\.ts$'],
  // Medium tests start real services; their hooks and round trips need more than 5 s.
  testTimeout: 180_000,
};
