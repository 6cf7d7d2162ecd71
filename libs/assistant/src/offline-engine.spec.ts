import { parseCircuit } from '#qdc/circuits';
import { codeBlocks, isCircuitBlock } from './code-blocks.js';
import { measuredDistribution } from './circuit-verification.js';
import { hellingerFidelity } from './hellinger.js';
import { KnowledgeBase } from './knowledge-base.js';
import { answerOffline, tokenChunks, type CodeMode } from './offline-engine.js';
import { OFFLINE_TASKS } from './offline-task-list.js';
import { detectKind, parseRequest } from './request-parser.js';

const knowledge = new KnowledgeBase([
  {
    path: 'docs/knowledge/gates.md',
    text: '# Gates\n\n## T gate\n\nThe T gate is the π/4 phase gate, diag(1, e^{iπ/4}); T² = S.\n\n## Hadamard gate\n\nH maps |0⟩ to |+⟩ and |1⟩ to |−⟩.\n',
  },
  { path: 'docs/knowledge/qubits.md', text: '# Qubits\n\n## What is a qubit\n\nA qubit is a two-level quantum system with states α|0⟩ + β|1⟩.\n' },
]);

function factory(codeMode: CodeMode = 'inline') {
  return {
    sut: (content: string, history: string[] = []) =>
      answerOffline([...history.map((h) => ({ role: 'user' as const, content: h })), { role: 'user', content }], { codeMode, knowledge }),
  };
}

describe('answerOffline', () => {
  describe.each(OFFLINE_TASKS)('$kind: "$request"', (task) => {
    it('parses as the intended kind and framework', () => {
      const parsed = parseRequest(task.request);
      expect(parsed?.task.kind).toBe(task.kind);
      expect(parsed?.framework).toBe(task.framework);
    });

    it('answers with code that parses and simulates to the ideal distribution (Hellinger fidelity ≥ 0.99)', () => {
      const { sut } = factory('inline');
      const answer = sut(task.request);
      expect(answer.kind).toBe('circuit');
      expect(answer.verification).toMatchObject({ parsed: true, simulated: true, repairs: 0 });
      const blocks = codeBlocks(answer.text).filter(isCircuitBlock);
      expect(blocks).toHaveLength(1);
      const code = blocks[0].code;
      if (task.framework === 'pennylane' || task.framework === 'braket') {
        // No front end reads these SDKs; the answer was checked through the OpenQASM 3 of the same circuit.
        expect(code).toMatch(task.framework === 'pennylane' ? /import pennylane as qml/ : /from braket\.circuits import Circuit/);
        expect(answer.verification?.fidelity).toBeGreaterThanOrEqual(0.99);
        return;
      }
      const simulated = measuredDistribution(parseCircuit(code).circuit);
      if (task.ideal) expect(hellingerFidelity(simulated, task.ideal)).toBeGreaterThanOrEqual(0.99);
      else expect(Object.values(simulated).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    });
  });

  it('puts all code in files and none in tokens with code_mode=file', () => {
    const { sut } = factory('file');
    for (const task of OFFLINE_TASKS.filter((_, i) => i % 4 === 0)) {
      const answer = sut(task.request);
      expect(answer.files).toHaveLength(1);
      expect(answer.text).not.toContain('```');
      expect(answer.text).not.toMatch(/QuantumCircuit\(|cirq\.Circuit\(|OPENQASM|qml\.device|Circuit\(\)\./);
      expect(answer.files[0].path).toMatch(/\.(py|qasm)$/);
      if (task.ideal && task.framework !== 'pennylane' && task.framework !== 'braket') {
        expect(hellingerFidelity(measuredDistribution(parseCircuit(answer.files[0].content).circuit), task.ideal)).toBeGreaterThanOrEqual(0.99);
      }
    }
  });

  it('prepares the requested Bell state, not just its distribution (Φ− differs from Φ+ only in phase)', () => {
    const { sut } = factory();
    const minus = sut('make the Bell state |Φ-⟩ in OpenQASM 3');
    const code = codeBlocks(minus.text)[0].code;
    expect(code).toMatch(/x q\[0\];/);
    expect(minus.text).toMatch(/state fidelity 1\.0000/);
  });

  it('amends the previous request on a follow-up ("now in Cirq with 6 qubits")', () => {
    const { sut } = factory();
    const answer = sut('now in Cirq with 6 qubits', ['build a 5-qubit GHZ circuit']);
    expect(answer.kind).toBe('circuit');
    const code = codeBlocks(answer.text)[0].code;
    expect(code).toMatch(/import cirq/);
    expect(hellingerFidelity(measuredDistribution(parseCircuit(code).circuit), { '000000': 0.5, '111111': 0.5 })).toBeGreaterThanOrEqual(0.99);
  });

  it('answers concept questions from the knowledge base and cites the section', () => {
    const { sut } = factory();
    const answer = sut('What is a T gate?');
    expect(answer.kind).toBe('concept');
    expect(answer.text).toContain('π/4 phase gate');
    expect(answer.text).toContain('Source: docs/knowledge/gates.md § Gates › T gate');
    expect(sut('what is a qubit?').text).toContain('two-level quantum system');
  });

  it('treats "what is a GHZ state" as a question, not a build request', () => {
    expect(detectKind('what is a GHZ state')).toBe('ghz');
    expect(factory().sut('what is a GHZ state').kind).not.toBe('circuit');
  });

  it('says honestly what it can do offline for anything else', () => {
    const { sut } = factory();
    for (const q of ['Hi', 'write me a poem about cats', 'what will the weather be tomorrow?']) {
      const answer = sut(q);
      expect(answer.kind).toBe('fallback');
      expect(answer.text).toContain('QDC_LLM_BASE_URL');
      expect(answer.verification).toBeNull();
    }
  });

  it('refuses requests beyond its limits with the reason', () => {
    const { sut } = factory();
    expect(sut('build a 40-qubit GHZ state').text).toMatch(/up to 16 qubits.*40/);
    expect(sut('make a distance 4 repetition code').text).toMatch(/odd distance/);
  });

  it('streams tokens that join back to the text', () => {
    const text = 'Here is a GHZ state:\n\n```python\nqc.h(0)\n```\n';
    expect(tokenChunks(text).join('')).toBe(text);
  });
});

describe(detectKind.name, () => {
  it('reads "search for" as Grover only with a bitstring to find', () => {
    expect(detectKind('search for 0110 with grover')).toBe('grover');
    expect(detectKind('search for the marked state 101')).toBe('grover');
    expect(detectKind('build a circuit that searches for documentation')).toBeUndefined();
  });
});

describe('pathological input', () => {
  // Without the cap, the phase patterns backtrack quadratically over the digits (the test would time out).
  it('answers a megabyte of digits (only the start of a message is parsed)', () => {
    const answer = answerOffline([{ role: 'user', content: `phase estimation of ${'1'.repeat(1_000_000)} pi` }], { codeMode: 'inline', knowledge });
    expect(['circuit', 'fallback']).toContain(answer.kind);
  }, 10_000);
});
