/**
 * A state written in a request, as amplitudes (little-endian index: qubit 0 the least-significant
 * bit): Dirac sums ("sqrt(1/3)|00> + sqrt(2/3)|11>", "(|0⟩ + i|1⟩)/√2", "cos(π/8)|0⟩ + sin(π/8)|1⟩"),
 * amplitude lists ("amplitudes [0.5, 0.5, 0.5, -0.5]"), equal superpositions of listed kets and
 * products of single-qubit states ("qubit 0 in |−⟩ and qubit 1 in |+⟩"). Kets and lists in a Cirq
 * request are in Cirq's order (qubit 0 first / most significant). Normalisation is left to the
 * synthesis, so "/√2" factors need not be read.
 */
export type Amplitude = [number, number];

export interface StateRequest {
  amplitudes: Amplitude[];
  /** How the state was read, for the answer ("(|00⟩ + |11⟩)·…"). */
  label: string;
}

const KET = String.raw`[|]\s*([01]+)\s*[⟩>]`;
const ANGLE = String.raw`(-?\s*\d*\.?\d*)\s*\*?\s*(pi|π)?\s*(?:\/\s*(\d+(?:\.\d+)?))?`;

function angleOf(text: string): number | undefined {
  const m = new RegExp(`^${ANGLE}$`, 'i').exec(text.trim());
  if (!m || (!m[1].replace(/[-\s]/g, '') && !m[2])) return undefined;
  const sign = /-/.test(m[1]) ? -1 : 1;
  const k = m[1].replace(/[-\s]/g, '') ? Number(m[1].replace(/[-\s]/g, '')) : 1;
  return (sign * k * (m[2] ? Math.PI : 1)) / (m[3] ? Number(m[3]) : 1);
}

/** A real number written as 0.6, 1/3, 2/3. */
function realOf(text: string): number | undefined {
  const t = text.trim();
  const frac = /^(\d*\.?\d+)\s*\/\s*(\d*\.?\d+)$/.exec(t);
  if (frac) return Number(frac[1]) / Number(frac[2]);
  return /^\d*\.?\d+$/.test(t) ? Number(t) : undefined;
}

const mul = (a: Amplitude, b: Amplitude): Amplitude => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];

/** A coefficient: factors (numbers, fractions, sqrt(…), √…, i / 1j, cos(…), sin(…), e^{iθ}) joined by nothing, * or ·. */
function coefficientOf(text: string): Amplitude | undefined {
  let rest = text.replace(/\s+/g, '');
  let value: Amplitude = [1, 0];
  if (!rest) return value;
  const factor = [
    /^(?:sqrt|√)\(([^()]+)\)/i,
    /^√(\d*\.?\d+)/,
    /^(cos|sin)\(([^()]+)\)/i,
    /^e\^\{?i\*?([^}]+)\}?/i,
    /^(\d*\.?\d+(?:\/\d*\.?\d+)?)/,
    /^(1j|j|i)(?![a-z])/i,
  ];
  while (rest) {
    rest = rest.replace(/^[*·]/, '');
    let matched = false;
    for (const [k, re] of factor.entries()) {
      const m = re.exec(rest);
      if (!m) continue;
      let f: Amplitude | undefined;
      if (k === 0 || k === 1) {
        const v = realOf(m[1]);
        f = v === undefined ? undefined : [Math.sqrt(v), 0];
      } else if (k === 2) {
        const a = angleOf(m[2]);
        f = a === undefined ? undefined : [m[1].toLowerCase() === 'cos' ? Math.cos(a) : Math.sin(a), 0];
      } else if (k === 3) {
        const a = angleOf(m[1]);
        f = a === undefined ? undefined : [Math.cos(a), Math.sin(a)];
      } else if (k === 4) {
        const v = realOf(m[1]);
        f = v === undefined ? undefined : [v, 0];
      } else f = [0, 1];
      if (!f) return undefined;
      value = mul(value, f);
      rest = rest.slice(m[0].length);
      matched = true;
      break;
    }
    if (!matched) return undefined;
  }
  return value;
}

const toIndex = (bits: string, cirq: boolean) => parseInt(cirq ? [...bits].reverse().join('') : bits, 2);
const fromBigEndian = (i: number, n: number) => {
  let r = 0;
  for (let b = 0; b < n; b++) if ((i >> b) & 1) r |= 1 << (n - 1 - b);
  return r;
};

const SINGLE: Record<string, Amplitude[]> = {
  '0': [
    [1, 0],
    [0, 0],
  ],
  '1': [
    [0, 0],
    [1, 0],
  ],
  '+': [
    [Math.SQRT1_2, 0],
    [Math.SQRT1_2, 0],
  ],
  '-': [
    [Math.SQRT1_2, 0],
    [-Math.SQRT1_2, 0],
  ],
  '−': [
    [Math.SQRT1_2, 0],
    [-Math.SQRT1_2, 0],
  ],
  i: [
    [Math.SQRT1_2, 0],
    [0, Math.SQRT1_2],
  ],
};

export function stateIn(text: string, cirq: boolean): StateRequest | undefined {
  // Amplitude list.
  const list = /\bamplitudes?\s*(?:of\s*|=\s*|:\s*)?\[([^\]]+)\]/i.exec(text);
  if (list) {
    const values = list[1]
      .split(',')
      .map((v) => coefficientOf(v.replace(/^\s*-\s*/, '')) && (/^\s*-/.test(v) ? mul(coefficientOf(v.replace(/^\s*-\s*/, ''))!, [-1, 0]) : coefficientOf(v)!));
    const n = Math.log2(values.length);
    if (values.every(Boolean) && Number.isInteger(n) && n >= 1) {
      const amplitudes = (values as Amplitude[]).map((_, i) => (values as Amplitude[])[cirq ? fromBigEndian(i, n) : i]);
      return { amplitudes, label: `the amplitudes [${list[1].trim()}]` };
    }
  }
  // Equal superposition of listed kets.
  const listed = /\bsuperposition of\s+((?:[|]\s*[01]+\s*[⟩>]\s*(?:,|and|\s)*){2,})/i.exec(text);
  if (listed) {
    const kets = [...listed[1].matchAll(new RegExp(KET, 'g'))].map((m) => m[1]);
    const n = kets[0].length;
    if (kets.every((k) => k.length === n)) {
      const amplitudes: Amplitude[] = Array.from({ length: 1 << n }, () => [0, 0]);
      for (const k of kets) amplitudes[toIndex(k, cirq)] = [1, 0];
      return { amplitudes, label: `the equal superposition of ${kets.map((k) => `|${k}⟩`).join(', ')}` };
    }
  }
  // Product of single-qubit states: "qubit 0 in |−⟩ and qubit 1 in |+⟩".
  const singles = [...text.matchAll(/\bqubit\s*(\d+)\s+(?:is\s+)?in\s+(?:the\s+)?[|]\s*([01+\-−i])\s*[⟩>]/gi)];
  if (singles.length >= 1) {
    const n = Math.max(...singles.map((m) => Number(m[1]))) + 1;
    if (n <= 8) {
      const per = new Map(singles.map((m) => [Number(m[1]), SINGLE[m[2]]]));
      const amplitudes: Amplitude[] = Array.from({ length: 1 << n }, (_, i) => {
        let a: Amplitude = [1, 0];
        for (let q = 0; q < n; q++) a = mul(a, (per.get(q) ?? SINGLE['0'])[(i >> q) & 1]);
        return a;
      });
      return { amplitudes, label: singles.map((m) => `qubit ${m[1]} in |${m[2]}⟩`).join(', ') };
    }
  }
  // Dirac sum: a run of kets, each preceded by a sign (after the first) and an optional coefficient.
  const kets = [...text.matchAll(new RegExp(KET, 'g'))];
  let terms: { sign: number; coef: Amplitude; bits: string; start: number; end: number }[] = [];
  let best: typeof terms = [];
  for (const [k, m] of kets.entries()) {
    const before = k === 0 || !terms.length ? text.slice(0, m.index) : text.slice(terms.at(-1)!.end, m.index);
    let sign = 1;
    let coefText: string;
    if (terms.length) {
      const joined = /^\s*([+−-])\s*(.*?)\s*$/.exec(before);
      if (!joined) {
        if (terms.length > best.length) best = terms;
        terms = [];
      } else {
        sign = joined[1] === '+' ? 1 : -1;
        coefText = joined[2];
        const coef = coefficientOf(coefText.replace(/^\(+/, ''));
        if (coef) {
          terms.push({ sign, coef, bits: m[1], start: m.index!, end: m.index! + m[0].length });
          continue;
        }
        if (terms.length > best.length) best = terms;
        terms = [];
      }
    }
    coefText = /[\w.√/·*^{}()π]*$/.exec(before)![0];
    const coef = coefficientOf(coefText.replace(/^\(+/, '')) ?? [1, 0];
    terms.push({
      sign: /[−-]\s*$/.test(before.slice(0, before.length - coefText.length)) ? -1 : 1,
      coef,
      bits: m[1],
      start: m.index! - coefText.length,
      end: m.index! + m[0].length,
    });
  }
  if (terms.length > best.length) best = terms;
  terms = best;
  if (terms.length < 2) return undefined;
  const n = terms[0].bits.length;
  if (!terms.every((t) => t.bits.length === n) || n > 8) return undefined;
  const amplitudes: Amplitude[] = Array.from({ length: 1 << n }, () => [0, 0]);
  for (const t of terms) {
    const i = toIndex(t.bits, cirq);
    amplitudes[i] = [amplitudes[i][0] + t.sign * t.coef[0], amplitudes[i][1] + t.sign * t.coef[1]];
  }
  return { amplitudes, label: text.slice(terms[0].start, terms.at(-1)!.end).trim() };
}
