/**
 * Rewrites libs/circuits/corpus/refused.json from what the front ends refuse today:
 * `npm run build && node dist/libs/circuits/test/corpus-refused.js`. Only parse refusals
 * (CircuitError, a 422) are recorded; a program that parses but simulates to the wrong
 * distribution stays a failing test. Prints what left and joined the list.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir, corpusPrograms, loadCorpus, loadRefused, parseProgram, refusalMessage } from './corpus.js';

const dir = corpusDir();
const before = loadRefused(dir);
const programs: Record<string, string> = {};
for (const program of corpusPrograms(loadCorpus(dir))) {
  try {
    parseProgram(program);
  } catch (error) {
    const message = refusalMessage(error);
    if (message === undefined) throw new Error(`${program.id} crashes the front end (would be a 500): ${String(error)}`);
    programs[program.id] = message;
  }
}
const file = join(dir, 'refused.json');
const doc = JSON.parse(readFileSync(file, 'utf8')) as { about: string; programs: Record<string, string> };
doc.programs = programs;
writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
const left = Object.keys(before).filter((id) => !(id in programs));
const joined = Object.keys(programs).filter((id) => !(id in before));
console.log(`${Object.keys(programs).length} refused (${left.length} now parse, ${joined.length} newly refused)`);
for (const id of joined) console.log(`  + ${id}: ${programs[id]}`);
for (const id of left) console.log(`  - ${id}`);
