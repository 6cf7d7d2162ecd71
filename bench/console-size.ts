/**
 * The web console's shipped size (dist/console, built by `npm run build`): JavaScript and CSS, raw and gzipped
 * (level 9, what a server's static gzip gives). Run at the end of every build; exits 1 when the JavaScript is over
 * the budget of issue #30 (250 KB gzipped), so a heavy dependency fails the build instead of slipping in.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

export const CONSOLE_JS_BUDGET_BYTES = 250 * 1000;

export interface ConsoleSize {
  files: { path: string; bytes: number; gzipBytes: number }[];
  jsBytes: number;
  jsGzipBytes: number;
  cssGzipBytes: number;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

export function consoleSize(dir = 'dist/console'): ConsoleSize {
  const files = filesUnder(dir).map((path) => {
    const body = readFileSync(path);
    return { path: relative(dir, path), bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length };
  });
  const of = (ext: string) => files.filter((f) => extname(f.path) === ext);
  return {
    files,
    jsBytes: of('.js').reduce((sum, f) => sum + f.bytes, 0),
    jsGzipBytes: of('.js').reduce((sum, f) => sum + f.gzipBytes, 0),
    cssGzipBytes: of('.css').reduce((sum, f) => sum + f.gzipBytes, 0),
  };
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const size = consoleSize(process.argv[2]);
  console.log(
    `console: ${kb(size.jsGzipBytes)} of JavaScript gzipped (${kb(size.jsBytes)} raw; budget ${kb(CONSOLE_JS_BUDGET_BYTES)}), ${kb(size.cssGzipBytes)} of CSS gzipped, ${size.files.length} files in dist/console`,
  );
  if (size.jsGzipBytes > CONSOLE_JS_BUDGET_BYTES) {
    console.error(`console: the JavaScript is over its budget of ${kb(CONSOLE_JS_BUDGET_BYTES)} gzipped`);
    process.exit(1);
  }
}
