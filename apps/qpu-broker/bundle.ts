/**
 * Build step (`npm run build`, after tsc): replaces the qpu-broker's built entry points by one-file bundles of
 * themselves, so that a broker started again after a crash loads one ES module instead of ~1,400 (tsc's ~700 files
 * from dist/ and node_modules' ESM, ~700 CommonJS files). Node 20 has no compile cache for ES modules, and on a busy
 * machine resolving, reading and linking those files was most of the broker's boot (bench:faults, "kill -9 qpu-broker").
 *
 * The input is tsc's output (dist/…/main.js, decorator metadata already emitted), not the TypeScript: esbuild does not
 * emit `design:paramtypes`, and Nest's injection needs them. The bundle is written over the same file, so everything
 * that starts the broker (npm start, the test harness, docker-compose, deploy/, the Dockerfile) runs it unchanged, and
 * paths the broker derives from its own location (qpu.config.ts: the repository's devices/) stay right. A dist/
 * built by `tsc` alone keeps tsc's unbundled entry, which runs the same code.
 *
 * Left outside the bundle, loaded from node_modules at run time:
 * - `reflect-metadata`: must run before any decorated class is defined. A bundled CommonJS module runs where it is
 *   first required, after the bundle's ES modules; an external ES import is evaluated before the bundle's body.
 * - Prisma's query compiler (4.6 MB of base64 WebAssembly), imported at the first query.
 * - optional packages that are not installed (Nest's microservices/websockets/express/class-validator adapters,
 *   msgpackr's native extractor): imported only if present, as before.
 * - OpenTelemetry: loaded with `require` (createRequire) only when tracing is on.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The entry points bundled in place (relative to the repository root): the two processes, and the thread a
 * simulation worker starts for each simulation (simulation-thread-runner.ts).
 */
export const BUNDLED_ENTRIES = [
  'dist/apps/qpu-broker/src/main.js',
  'dist/apps/qpu-broker/src/simulation-worker.js',
  'dist/apps/qpu-broker/src/simulation/simulation-thread.js',
];

const MARKER = '// qdc bundle: ';

const EXTERNAL = [
  'reflect-metadata',
  '@prisma/client/runtime/*.wasm-base64.mjs',
  '@opentelemetry/*',
  'msgpackr-extract',
  'class-validator',
  'class-transformer',
  '@nestjs/microservices',
  '@nestjs/microservices/*',
  '@nestjs/websockets',
  '@nestjs/websockets/*',
  '@nestjs/platform-express',
];

/** CommonJS inside an ES module bundle still calls `require` and reads `__dirname` / `__filename`. */
const PRELUDE = [
  "import { createRequire as __qdcCreateRequire } from 'node:module';",
  "import { dirname as __qdcDirname } from 'node:path';",
  "import { fileURLToPath as __qdcFileURLToPath } from 'node:url';",
  'const require = __qdcCreateRequire(import.meta.url);',
  'const __filename = __qdcFileURLToPath(import.meta.url);',
  'const __dirname = __qdcDirname(__filename);',
].join(' ');

/**
 * `new URL('./file.js', import.meta.url)` (a worker thread's script) names a file next to the module that says it; in the
 * bundle, `import.meta.url` is the bundle's. Such a path is rewritten to the same file, relative to the bundle.
 */
function relativeUrls(outfile: string): Plugin {
  return {
    name: 'qdc-relative-urls',
    setup(build) {
      const ownFiles = new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/dist/.*\\.js$`);
      build.onLoad({ filter: ownFiles }, (args) => {
        const contents = readFileSync(args.path, 'utf8');
        if (!contents.includes('import.meta.url')) return undefined;
        const rewritten = contents.replace(/new URL\((['"])(\.\.?\/[^'"]+)\1, import\.meta\.url\)/g, (_all, _quote, path: string) => {
          const target = relative(dirname(outfile), resolve(dirname(args.path), path));
          return `new URL(${JSON.stringify(target.startsWith('.') ? target : `./${target}`)}, import.meta.url)`;
        });
        return { contents: rewritten, loader: 'js' };
      });
    },
  };
}

export async function bundleEntry(entry: string): Promise<{ entry: string; modules: number; bytes: number } | undefined> {
  const file = resolve(root, entry);
  // Already a bundle: tsc did not write this entry again since the last bundling.
  if (readFileSync(file, 'utf8').startsWith(MARKER)) return undefined;
  const result = await build({
    absWorkingDir: root,
    entryPoints: [file],
    outfile: file,
    write: false,
    allowOverwrite: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // tsconfig.json maps #qdc/* to the TypeScript sources (for the type checker); the bundle takes tsc's output.
    tsconfigRaw: {},
    // Nest and the logs read class names (logger contexts); without this, esbuild renames colliding ones (Foo2).
    keepNames: true,
    external: EXTERNAL,
    plugins: [relativeUrls(file)],
    banner: { js: `${MARKER}${entry} (apps/qpu-broker/bundle.ts)\n${PRELUDE}` },
    metafile: true,
    logLevel: 'warning',
  });
  // A warning here (an import that will always be undefined, a require esbuild cannot follow) is a bundle that would
  // fail at run time: the build fails and tsc's unbundled entry stays.
  if (result.warnings.length) throw new Error(`bundling ${entry}: ${result.warnings.length} warning(s), see above; ${entry} left unbundled`);
  const output = result.outputFiles[0]!;
  writeFileSync(file, output.contents);
  return { entry, modules: Object.keys(result.metafile.inputs).length, bytes: output.contents.byteLength };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const entry of BUNDLED_ENTRIES) {
    const done = await bundleEntry(entry);
    if (done) console.log(`bundled ${relative(root, resolve(root, done.entry))}: ${done.modules} modules, ${(done.bytes / 1e6).toFixed(1)} MB`);
  }
}
