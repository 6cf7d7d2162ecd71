/**
 * Tests a circuit answer someone else wrote (the language model's) against the request it answers,
 * with the same claims the offline engine checks its own answers against: the scaffold's function
 * defined and called, the framework asked for, the stated qubit count, what is measured, and the
 * output distribution (or state) the request implies as read by request-parser.ts. The result names
 * every check with its figure, what could not be checked, and the first failure (for a repair round).
 */
import { detectFramework, parseCircuit, type Circuit } from '#qdc/circuits';
import { synthesize } from './circuit-synthesis.js';
import { FIDELITY_THRESHOLD, verifyCircuit } from './circuit-verification.js';
import { FRAMEWORK_LABEL, frameworkIn } from './frameworks.js';
import type { Distribution } from './hellinger.js';
import { type ClaimCheck, checkMeasurement, checkQubitCount, measurementClaim, statedQubits } from './request-claims.js';
import { scaffoldIn } from './request-form.js';
import { parseRequest, qubitCount, type ParsedRequest } from './request-parser.js';

export interface AnswerChecks {
  checks: ClaimCheck[];
  notChecked: string[];
  /** The first failed check (or why the code could not be run), phrased for the model and for the user. */
  failure?: string;
  /** How the request was read, when it was. */
  reading?: string;
  circuit?: Circuit;
  fidelity?: number;
}

/** How the request reads as a circuit task, or undefined (it names none the parser knows, or asks a question). */
function readRequest(text: string): ParsedRequest | undefined {
  try {
    return parseRequest(text);
  } catch {
    return undefined;
  }
}

export function checkAnswerAgainstRequest(code: string, request: string): AnswerChecks {
  const checks: ClaimCheck[] = [];
  const notChecked: string[] = [];
  const scaffold = scaffoldIn(request);
  const wanted = frameworkIn(request);
  let source: string;
  try {
    source = detectFramework(code);
  } catch (error) {
    return { checks, notChecked, failure: `the code is in no language QDC reads (${(error as Error).message})` };
  }
  if (wanted && (wanted === 'qiskit' || wanted === 'cirq' || wanted === 'openqasm2' || wanted === 'openqasm3')) {
    const ok = source === wanted;
    checks.push({
      ok,
      text: ok ? `written in ${FRAMEWORK_LABEL[wanted]}, as asked` : `written in ${source}, but the request asks for ${FRAMEWORK_LABEL[wanted]}`,
    });
  }
  let circuit: Circuit;
  try {
    if (scaffold?.required.length) {
      notChecked.push(`calling \`${scaffold.name}\` (it needs ${scaffold.required.join(', ')}); the code's circuit was read without calling it`);
      circuit = parseCircuit(code).circuit;
    } else circuit = parseCircuit(code, scaffold ? { entryPoint: scaffold.name } : {}).circuit;
  } catch (error) {
    return {
      checks,
      notChecked,
      failure: `${scaffold ? `calling ${scaffold.name}() through QDC's front end failed` : 'the code does not parse as a circuit'}: ${(error as Error).message}`,
    };
  }
  if (scaffold && !scaffold.required.length)
    checks.push({ ok: true, text: `\`${scaffold.name}(${scaffold.params})\` is defined and returns a ${circuit.numQubits}-qubit circuit` });
  const parsed = readRequest(request);
  const claim = measurementClaim(request);
  if (parsed) {
    const expected = statedQubits(parsed.task, qubitCount(request));
    if (expected !== undefined) checks.push(checkQubitCount(circuit, expected));
  }
  if (claim) checks.push(checkMeasurement(circuit, claim));
  let fidelity: number | undefined;
  let ideal: Distribution | undefined;
  if (parsed && parsed.task.kind !== 'ansatz' && !parsed.assumptions.length && claim?.kind !== 'none' && claim?.kind !== 'only') {
    const built = synthesize(parsed.task);
    if (Object.keys(built.ideal).length) ideal = built.ideal;
  }
  const report = verifyCircuit(circuit, ideal ? { ideal } : undefined);
  if (!report.simulated) return { checks, notChecked, failure: report.error ?? 'the circuit could not be simulated', circuit };
  if (report.fidelity !== undefined) {
    fidelity = report.fidelity;
    checks.push({
      ok: report.fidelity >= FIDELITY_THRESHOLD,
      text:
        report.fidelity >= FIDELITY_THRESHOLD
          ? `its exact output distribution matches the one the request implies (Hellinger fidelity ${report.fidelity.toFixed(4)}, threshold ${FIDELITY_THRESHOLD})`
          : `its measured distribution does not match the request (Hellinger fidelity ${report.fidelity.toFixed(4)} < ${FIDELITY_THRESHOLD}); ${report.error?.replace(/^.*?; /, '') ?? ''}`,
    });
  } else if (!parsed) notChecked.push('the output distribution: the request names no algorithm and parameters QDC can compute it from');
  else if (parsed.assumptions.length)
    notChecked.push(`the output distribution: the request leaves ${parsed.assumptions.length > 1 ? 'parameters' : 'a parameter'} open`);
  const failed = checks.find((c) => !c.ok);
  return {
    checks,
    notChecked,
    ...(failed ? { failure: failed.text } : {}),
    ...(parsed ? { reading: synthesize(parsed.task).title } : {}),
    circuit,
    ...(fidelity === undefined ? {} : { fidelity }),
  };
}

/** The closing paragraph of a checked answer: each check with its figure, the reading, and what was not checked. */
export function checksParagraph(result: AnswerChecks): string {
  const passed = result.checks.filter((c) => c.ok);
  const parts = [
    passed.length
      ? `Checked against the request with QDC's simulator: ${passed.map((c) => c.text).join('; ')}.`
      : `QDC parsed and simulated this circuit (${result.circuit?.numQubits ?? '?'} qubits), but the request gave nothing to test it against.`,
    result.reading && result.fidelity !== undefined ? `Read as: ${result.reading}.` : '',
    result.notChecked.length ? `Not verified: ${result.notChecked.join('; ')}.` : '',
  ];
  return parts.filter(Boolean).join(' ');
}
