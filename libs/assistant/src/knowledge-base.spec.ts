import { readFileSync, readdirSync } from 'node:fs';
import { KnowledgeBase, splitSections, tokenize } from './knowledge-base.js';

// The knowledge base shipped in the repository (jest runs from the repository root).
const docs = readdirSync('docs/knowledge')
  .filter((n) => n.endsWith('.md'))
  .map((n) => ({ path: `docs/knowledge/${n}`, text: readFileSync(`docs/knowledge/${n}`, 'utf8') }));

const factory = () => ({ sut: new KnowledgeBase(docs) });

describe(KnowledgeBase.name, () => {
  it.each([
    ['What is a qubit?', 'What is a qubit'],
    ['Explain superposition briefly', 'Superposition'],
    ['Define quantum superposition in one line.', 'Superposition'],
    ['what is a T gate', 'T gate'],
    ['What is a GHZ state?', 'GHZ state'],
    ['How does Grover search work?', "Grover's algorithm"],
    ['what is T1', 'T1 relaxation'],
    ['explain the surface code', 'Surface code'],
    ['how do I run a model?', 'How to run a model'],
    ['what is a pinch-off sweep', 'Pinch-off and turn-on models'],
    ['what are Coulomb diamonds', 'Coulomb diamonds'],
    ['tell me about quantum teleportation', 'Quantum teleportation'],
    ['how do I get an API key', 'How to get an API key'],
    ['what is the Bloch sphere', 'Bloch sphere'],
  ])('ranks the section about "%s" first', (query, heading) => {
    const { sut } = factory();
    const [best] = sut.search(query, 1);
    expect(best.heading.split(' › ').at(-1)).toBe(heading);
    expect(best.coverage).toBeGreaterThanOrEqual(0.5);
  });

  it('matches nothing (or little) for questions outside the knowledge base', () => {
    const { sut } = factory();
    for (const q of ['Hi', 'write me a poem about cats', 'what is the weather tomorrow']) {
      const [best] = sut.search(q, 1);
      expect(best?.coverage ?? 0).toBeLessThan(0.5);
    }
  });

  it('splits documents into sections with their heading trail', () => {
    const sections = splitSections({ path: 'a.md', text: '# Top\n\nintro\n\n## Child\n\nbody text\n' });
    expect(sections.map((s) => s.heading)).toEqual(['Top', 'Top › Child']);
    expect(sections[1]).toMatchObject({ anchor: 'child', body: 'body text' });
  });

  it('tokenizes to stemmed content words', () => {
    expect(tokenize('What are the qubits measuring?')).toEqual(['qubit', 'measur']);
  });
});
