import { Injectable, Logger } from '@nestjs/common';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KnowledgeBase, type KnowledgeDocument } from '#qdc/assistant';

/** dist/apps/assistant/src/assistant → repository (or image) root. */
const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

/**
 * The assistant's two corpora, read once at boot: the knowledge base written for it
 * (docs/knowledge/*.md) for concept answers, and that plus QDC's own docs (README, docs/*.md)
 * for the LLM's docs-search tool.
 */
@Injectable()
export class KnowledgeService {
  private readonly logger = new Logger(KnowledgeService.name);
  readonly concepts: KnowledgeBase;
  readonly docs: KnowledgeBase;

  constructor() {
    const knowledge = this.read(join(ROOT, 'docs/knowledge'));
    const docs = [...this.read(join(ROOT, 'docs')), ...this.read(ROOT, ['README.md'])];
    this.concepts = new KnowledgeBase(knowledge);
    this.docs = new KnowledgeBase([...knowledge, ...docs]);
    this.logger.log(`knowledge base: ${knowledge.length} documents, ${this.concepts.size} sections; docs search: ${this.docs.size} sections`);
  }

  private read(dir: string, only?: string[]): KnowledgeDocument[] {
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.md') && (!only || only.includes(n)));
    } catch {
      return [];
    }
    return names.sort().map((n) => ({ path: relative(ROOT, join(dir, n)), text: readFileSync(join(dir, n), 'utf8') }));
  }
}
