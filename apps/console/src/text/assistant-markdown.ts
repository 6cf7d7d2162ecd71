/**
 * The assistant's answers as blocks: prose and fenced code (```lang … ```). Parsed again on every token while an
 * answer streams in, so a fence still open at the end is a code block that is not `closed` yet.
 */
export type AnswerBlock = { type: 'text'; text: string } | { type: 'code'; info: string; code: string; closed: boolean };

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

export function answerBlocks(answer: string): AnswerBlock[] {
  const blocks: AnswerBlock[] = [];
  const lines = answer.split('\n');
  let text: string[] = [];
  const flushText = () => {
    const joined = text.join('\n');
    if (joined.trim()) blocks.push({ type: 'text', text: joined.trim() });
    text = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    // A backtick fence's info string may not contain backticks (CommonMark), so ```inline``` is prose.
    if (!open || (open[1]![0] === '`' && open[2]!.includes('`'))) {
      text.push(lines[i]!);
      continue;
    }
    flushText();
    const marker = open[1]!;
    const code: string[] = [];
    let closed = false;
    for (i++; i < lines.length; i++) {
      const line = lines[i]!;
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1]![0] === marker[0] && close[1]!.length >= marker.length) {
        closed = true;
        break;
      }
      code.push(line);
    }
    blocks.push({ type: 'code', info: open[2]!.trim(), code: code.join('\n'), closed });
  }
  flushText();
  return blocks;
}

/** Prose: paragraphs, bullet or numbered lists and headings (`#`), split on blank lines. */
export type ProseBlock = { type: 'paragraph'; text: string } | { type: 'list'; ordered: boolean; items: string[] } | { type: 'heading'; text: string };

export function proseBlocks(text: string): ProseBlock[] {
  const out: ProseBlock[] = [];
  for (const chunk of text.split(/\n\s*\n/)) {
    const lines = chunk.split('\n').filter((l) => l.trim());
    if (lines.length === 0) continue;
    const bullet = /^\s*[-*•]\s+/;
    const numbered = /^\s*\d+[.)]\s+/;
    if (lines.every((l) => bullet.test(l))) out.push({ type: 'list', ordered: false, items: lines.map((l) => l.replace(bullet, '')) });
    else if (lines.every((l) => numbered.test(l))) out.push({ type: 'list', ordered: true, items: lines.map((l) => l.replace(numbered, '')) });
    else if (lines.length === 1 && /^#{1,6}\s/.test(lines[0]!)) out.push({ type: 'heading', text: lines[0]!.replace(/^#{1,6}\s+/, '') });
    else out.push({ type: 'paragraph', text: lines.join('\n') });
  }
  return out;
}

/** Inline spans of prose: `code`, **bold**, and plain text. */
export type InlineSpan = { type: 'code' | 'strong' | 'text'; text: string };

export function inlineSpans(text: string): InlineSpan[] {
  const spans: InlineSpan[] = [];
  const pattern = /`([^`\n]+)`|\*\*([^*\n]+)\*\*/g;
  let at = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m.index > at) spans.push({ type: 'text', text: text.slice(at, m.index) });
    spans.push(m[1] !== undefined ? { type: 'code', text: m[1] } : { type: 'strong', text: m[2]! });
    at = m.index + m[0].length;
  }
  if (at < text.length) spans.push({ type: 'text', text: text.slice(at) });
  return spans;
}
