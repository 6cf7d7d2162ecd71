/**
 * Retrieval over Markdown documents by section with Okapi BM25 (Robertson & Zaragoza 2009,
 * "The Probabilistic Relevance Framework: BM25 and Beyond", eq. 3.15), k1 = 1.2, b = 0.75.
 * The section heading counts twice and matching it adds a bonus, so a section named after
 * the question's subject wins over one that merely mentions it often.
 */
export interface KnowledgeDocument {
  /** Repository path, cited in answers (`docs/knowledge/gates.md`). */
  path: string;
  text: string;
}

export interface KnowledgeSection {
  path: string;
  /** Heading trail, `Gates › T gate`. */
  heading: string;
  anchor: string;
  body: string;
}

export interface KnowledgeHit extends KnowledgeSection {
  score: number;
  /** Share of the query's weight (Σ idf, unknown terms at the largest idf) this section matches, 0–1. */
  coverage: number;
}

const K1 = 1.2;
const B = 0.75;
const STOPWORDS = new Set(
  'a an and are as at be by can do does for from how i in into is it its me of on or please show tell that the their there these this to use used using was what when where which who why will with you your explain describe define briefly brief short simple simply about give qdc s work works mean means one line sentence word words detail terms summary summarize overview quick quickly exactly'.split(
    ' ',
  ),
);
// "qdc" is a stopword for ranking only: nearly every QDC page mentions it; the subject is the rest.
// Words about the answer's form ("in one line", "briefly", "how does … work") say nothing about its subject.
/** Bonus × the share of a section's heading words that the query contains: a section named after the subject wins. */
const HEADING_BONUS = 3;

export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[`*_#>|()[\]{}"',.;:!?/\\]/g, ' ')
    .split(/\s+/)
    .map(stem)
    .filter((t) => t.length > 0 && !STOPWORDS.has(t));
}

/** A light suffix stripper (plural and -ing/-ed forms), enough to match "qubits" with "qubit". */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

export function splitSections(doc: KnowledgeDocument): KnowledgeSection[] {
  const sections: KnowledgeSection[] = [];
  const trail: string[] = [];
  let heading = '';
  let body: string[] = [];
  const flush = (): void => {
    const text = body.join('\n').trim();
    if (text && heading) sections.push({ path: doc.path, heading: trail.join(' › '), anchor: slug(heading), body: text });
    body = [];
  };
  for (const line of doc.text.split('\n')) {
    const m = /^(#{1,4})\s+(.*)$/.exec(line);
    if (m) {
      flush();
      const level = m[1].length;
      trail.length = level - 1;
      trail[level - 1] = m[2].trim();
      heading = m[2].trim();
      continue;
    }
    body.push(line);
  }
  flush();
  return sections;
}

const slug = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .trim()
    .replace(/\s+/g, '-');

export class KnowledgeBase {
  private readonly sections: KnowledgeSection[];
  private readonly termFreqs: Map<string, number>[];
  private readonly headingTerms: Set<string>[];
  private readonly lengths: number[];
  private readonly docFreq = new Map<string, number>();
  private readonly avgLength: number;

  constructor(documents: KnowledgeDocument[]) {
    this.sections = documents.flatMap(splitSections);
    this.termFreqs = this.sections.map((s) => {
      const tf = new Map<string, number>();
      const lastHeading = s.heading.split(' › ').at(-1) ?? '';
      for (const t of [...tokenize(s.body), ...tokenize(lastHeading), ...tokenize(lastHeading)]) tf.set(t, (tf.get(t) ?? 0) + 1);
      return tf;
    });
    this.headingTerms = this.sections.map((s) => new Set(tokenize(s.heading.split(' › ').at(-1) ?? '')));
    this.lengths = this.termFreqs.map((tf) => [...tf.values()].reduce((a, b) => a + b, 0));
    this.avgLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
    for (const tf of this.termFreqs) for (const t of tf.keys()) this.docFreq.set(t, (this.docFreq.get(t) ?? 0) + 1);
  }

  get size(): number {
    return this.sections.length;
  }

  search(query: string, limit = 3): KnowledgeHit[] {
    const terms = [...new Set(tokenize(query))];
    const N = this.sections.length;
    const idf = (t: string): number => {
      const n = this.docFreq.get(t) ?? 0;
      return Math.log(1 + (N - n + 0.5) / (n + 0.5));
    };
    const totalWeight = terms.reduce((s, t) => s + idf(t), 0);
    const hits: KnowledgeHit[] = [];
    this.termFreqs.forEach((tf, i) => {
      let score = 0;
      let matched = 0;
      for (const t of terms) {
        const f = tf.get(t);
        if (!f) continue;
        matched += idf(t);
        score += (idf(t) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * this.lengths[i]) / this.avgLength));
      }
      const heading = this.headingTerms[i];
      if (score > 0 && heading.size) score += (HEADING_BONUS * terms.filter((t) => heading.has(t)).length) / heading.size;
      if (score > 0) hits.push({ ...this.sections[i], score, coverage: totalWeight > 0 ? matched / totalWeight : 0 });
    });
    return hits.sort((a, b) => b.score - a.score).slice(0, limit);
  }
}
