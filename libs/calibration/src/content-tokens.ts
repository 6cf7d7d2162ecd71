// Token counts of the built-in reader's text. There is no model tokenizer behind it, so `usage` uses the
// documented approximation of OpenAI's tokenizer guidance for English text: one token ≈ 4 characters
// (https://help.openai.com/en/articles/4936856), rounded up, counted in Unicode code points.

export const CHARACTERS_PER_TOKEN = 4;

export function approximateTokens(text: string): number {
  return Math.ceil([...text].length / CHARACTERS_PER_TOKEN);
}

/** Cuts text to about `maxTokens` tokens at a word boundary, marking the cut with "…". */
export function truncateToTokens(text: string, maxTokens: number): string {
  if (approximateTokens(text) <= maxTokens) return text;
  const chars = [...text];
  const budget = Math.max(1, maxTokens * CHARACTERS_PER_TOKEN - 1);
  let cut = chars.slice(0, budget).join('');
  const space = cut.search(/\s\S*$/);
  if (space > budget / 2) cut = cut.slice(0, space);
  return `${cut}…`;
}
