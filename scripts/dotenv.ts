import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

/**
 * `npm start` reads `.env` when present (the file docker compose reads; `.env.example` lists every setting):
 * Node's own parser (`util.parseEnv`, the one behind `--env-file`), and a variable already set in the environment
 * wins over the file. Returns the names it set, for one log line; nothing when there is no file.
 */
export function loadDotEnv(file: string, env: NodeJS.ProcessEnv = process.env): string[] {
  if (!existsSync(file)) return [];
  const set: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (value === undefined || env[name] !== undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}
