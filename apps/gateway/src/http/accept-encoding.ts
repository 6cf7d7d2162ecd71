/**
 * Whether an Accept-Encoding header (RFC 9110 §12.5.3) accepts gzip: `gzip`, `x-gzip` or `*` with a q-value
 * above 0, unless gzip itself is listed with q=0.
 */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  let star = false;
  for (const item of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [coding, ...params] = item.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)).find(Boolean);
    const accepted = !q || Number(q[1]) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') return accepted;
    if (coding === '*') star = accepted;
  }
  return star;
}
