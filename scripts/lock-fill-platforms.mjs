// Completes package-lock.json with the foreign-platform optional binaries the registry reachable
// from the build machines does not serve (it 404s e.g. @swc/core-darwin-arm64). `npm install`
// then leaves them out of the lock, and `npm ci` refuses the lock as "out of sync".
// Each missing optional dependency gets an entry carrying its os/cpu/libc, so npm ci skips it on
// any other platform without fetching. Run after every `npm install`:
//   node scripts/lock-fill-platforms.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'win32', 'linux', 'freebsd', 'android', 'openharmony', 'sunos', 'netbsd', 'openbsd'];
const CPU = { arm64: 'arm64', x64: 'x64', ia32: 'ia32', ppc64: 'ppc64', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64', arm: 'arm' };

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  if (!os || !cpu) return undefined;
  const libc = parts.some((p) => p.startsWith('musl')) ? 'musl' : parts.some((p) => p.startsWith('gnu')) ? 'glibc' : undefined;
  return { os: [os], cpu: [cpu], ...(libc && os === 'linux' ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  if (!path || !entry.optionalDependencies) continue;
  const base = path.slice(0, path.lastIndexOf('node_modules/'));
  for (const [dep, range] of Object.entries(entry.optionalDependencies)) {
    const own = `${path}/node_modules/${dep}`;
    const hoisted = `${base}node_modules/${dep}`;
    const top = `node_modules/${dep}`;
    if (packages[own] || packages[hoisted] || packages[top]) continue;
    const platform = platformOf(dep);
    if (!platform) {
      console.warn(`left out ${dep} (required by ${path}): cannot tell its platform from the name`);
      continue;
    }
    packages[top] = {
      version: range.replace(/^[\^~=]/, ''),
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added += 1;
  }
}

lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => a.localeCompare(b, 'en')));
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: added ${added} foreign-platform optional entries`);
