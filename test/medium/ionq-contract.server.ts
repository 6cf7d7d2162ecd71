import { createServer, type IncomingMessage, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { addQreg, emptyCircuit, finalState, num, type GateOp } from '#qdc/circuits';

/**
 * A local stand-in for IonQ's v0.3 jobs API (docs.ionq.com/api-reference/v0.3): POST /jobs, GET /jobs/{id},
 * GET /jobs/{id}/results, PUT /jobs/{id}/status/cancel, `Authorization: apiKey <key>`. It validates the
 * documented native-gate input and answers the documented shapes; its results are the exact probabilities of
 * the submitted native circuit (angles in turns). Behaviour by shots: 13 fails, 17 stays running; others go
 * ready → submitted → running → completed over successive status polls.
 */
/** A gate of IonQ's native circuit format (ionq.circuit.v0, gateset "native"); validateInput checks that a request's gates are. */
type NativeGate = { gate: 'gpi' | 'gpi2'; target: number; phase: number } | { gate: 'ms'; targets: [number, number]; phases: [number, number]; angle?: number };

interface JobInput {
  format?: string;
  gateset?: string;
  qubits: number;
  circuit: NativeGate[];
}

/** A request body (JSON as received, undefined for none; POST /v0.3/jobs validates it before use). */
interface JobRequestBody {
  shots: number;
  input: JobInput;
  [field: string]: unknown;
}

export interface IonqContractServer {
  baseUrl: string;
  requests: { method: string; path: string; authorization?: string; body: JobRequestBody }[];
  close(): Promise<void>;
}

interface StoredJob {
  id: string;
  shots: number;
  polls: number;
  status: string;
  input: JobInput;
}

const TURN = 2 * Math.PI;
const isTurn = (x: unknown) => typeof x === 'number' && x >= 0 && x <= 1;

function validateInput(input: JobInput | undefined): string | null {
  if (input?.format !== 'ionq.circuit.v0' || input.gateset !== 'native') return 'input must be {format: "ionq.circuit.v0", gateset: "native", ...}';
  if (!Number.isInteger(input.qubits) || input.qubits < 1) return 'input.qubits must be a positive integer';
  if (!Array.isArray(input.circuit)) return 'input.circuit must be an array';
  for (const g of input.circuit) {
    const inRange = (q: unknown) => Number.isInteger(q) && (q as number) >= 0 && (q as number) < input.qubits;
    if ((g.gate === 'gpi' || g.gate === 'gpi2') && inRange(g.target) && isTurn(g.phase)) continue;
    if (
      g.gate === 'ms' &&
      Array.isArray(g.targets) &&
      g.targets.length === 2 &&
      g.targets.every(inRange) &&
      Array.isArray(g.phases) &&
      g.phases.every(isTurn) &&
      (g.angle === undefined || isTurn(g.angle))
    )
      continue;
    return `invalid native gate ${JSON.stringify(g)}`;
  }
  return null;
}

/** Exact probabilities of the native circuit, keyed by basis-state integer (qubit 0 least significant). */
function histogram(job: StoredJob): Record<string, number> {
  const c = emptyCircuit();
  addQreg(c, 'q', job.input.qubits);
  for (const g of job.input.circuit) {
    const op: GateOp =
      g.gate === 'ms'
        ? { kind: 'gate', name: 'ms', qubits: g.targets, params: [num(g.phases[0] * TURN), num(g.phases[1] * TURN), num((g.angle ?? 0.25) * TURN)] }
        : { kind: 'gate', name: g.gate, qubits: [g.target], params: [num(g.phase * TURN)] };
    c.ops.push(op);
  }
  const state = finalState(c);
  const out: Record<string, number> = {};
  for (let i = 0; i < state.length / 2; i++) {
    const p = state[2 * i]! ** 2 + state[2 * i + 1]! ** 2;
    if (p > 1e-12) out[String(i)] = Math.round(p * 1e9) / 1e9;
  }
  return out;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => resolve(text));
  });

export async function startIonqContractServer(apiKey: string): Promise<IonqContractServer> {
  const jobs = new Map<string, StoredJob>();
  const requests: IonqContractServer['requests'] = [];
  const server: Server = createServer(async (req, res) => {
    const text = await readBody(req);
    const path = (req.url ?? '').replace(/\?.*$/, '');
    const body = text ? JSON.parse(text) : undefined;
    requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.headers.authorization !== `apiKey ${apiKey}`) return send(401, { error: 'Unauthorized', message: 'invalid API key', statusCode: 401 });
    const jobPath = /^\/v0\.3\/jobs\/([^/]+)$/.exec(path);
    const resultsPath = /^\/v0\.3\/jobs\/([^/]+)\/results$/.exec(path);
    const cancelPath = /^\/v0\.3\/jobs\/([^/]+)\/status\/cancel$/.exec(path);
    if (req.method === 'POST' && path === '/v0.3/jobs') {
      const problem = validateInput(body?.input) ?? (Number.isInteger(body?.shots) && body.shots > 0 ? null : 'shots must be a positive integer');
      if (problem) return send(400, { error: 'Bad Request', message: problem, statusCode: 400 });
      const job: StoredJob = { id: randomUUID(), shots: body.shots, polls: 0, status: 'ready', input: body.input };
      jobs.set(job.id, job);
      return send(200, { id: job.id, status: job.status });
    }
    if (req.method === 'GET' && jobPath) {
      const job = jobs.get(jobPath[1]!);
      if (!job) return send(404, { error: 'Not Found', message: 'job not found', statusCode: 404 });
      if (job.status !== 'canceled') {
        job.polls += 1;
        job.status =
          job.shots === 13 && job.polls >= 2
            ? 'failed'
            : job.shots === 17
              ? job.polls >= 2
                ? 'running'
                : 'submitted'
              : ['submitted', 'running', 'completed'][Math.min(job.polls - 1, 2)]!;
      }
      return send(200, {
        id: job.id,
        status: job.status,
        target: 'simulator',
        shots: job.shots,
        qubits: job.input.qubits,
        ...(job.status === 'completed' ? { results_url: `/v0.3/jobs/${job.id}/results` } : {}),
        ...(job.status === 'failed' ? { failure: { error: 'An error occurred!', code: 'internal_error' } } : {}),
      });
    }
    if (req.method === 'GET' && resultsPath) {
      const job = jobs.get(resultsPath[1]!);
      if (job?.status !== 'completed') return send(404, { error: 'Not Found', message: 'no results', statusCode: 404 });
      return send(200, histogram(job));
    }
    if (req.method === 'PUT' && cancelPath) {
      const job = jobs.get(cancelPath[1]!);
      if (!job) return send(404, { error: 'Not Found', message: 'job not found', statusCode: 404 });
      job.status = 'canceled';
      return send(200, { id: job.id, status: 'canceled' });
    }
    return send(404, { error: 'Not Found', statusCode: 404 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { baseUrl: `http://127.0.0.1:${port}/v0.3`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
