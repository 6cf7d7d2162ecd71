import type { IonqNativeInput } from './ionq-circuit.js';

/** IonQ v0.3 job statuses (docs.ionq.com/api-reference/v0.3/jobs/get-a-specific-job). */
export type IonqJobStatus = 'ready' | 'submitted' | 'running' | 'completed' | 'canceled' | 'failed';

export interface IonqJob {
  id: string;
  status: IonqJobStatus;
  failure?: { error?: string; code?: string } | null;
}

export interface IonqCreateJob {
  target: string;
  shots: number;
  name: string;
  metadata: Record<string, string>;
  input: IonqNativeInput;
}

/** A non-2xx answer; `retriable` for rate limits and server-side trouble. */
export class IonqHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'IonqHttpError';
  }

  get retriable(): boolean {
    return this.status === 429 || this.status >= 500;
  }
}

/**
 * The four calls of IonQ's v0.3 jobs API the broker uses: create (POST /jobs), status (GET /jobs/{id}),
 * results (GET /jobs/{id}/results) and cancel (PUT /jobs/{id}/status/cancel), authenticated with
 * `Authorization: apiKey <key>`. Network failures surface as errors the caller retries.
 */
export class IonqClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly timeoutMs = 15_000,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl.replace(/\/$/, '')}${path}`, {
      method,
      headers: { authorization: `apiKey ${this.apiKey}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.text();
    if (!res.ok) throw new IonqHttpError(res.status, `IonQ ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new IonqHttpError(502, `IonQ ${method} ${path} answered non-JSON: ${text.slice(0, 100)}`);
    }
  }

  createJob(job: IonqCreateJob): Promise<IonqJob> {
    return this.call('POST', '/jobs', job);
  }

  getJob(id: string): Promise<IonqJob> {
    return this.call('GET', `/jobs/${encodeURIComponent(id)}`);
  }

  /** Probabilities per basis state (single-circuit jobs). */
  getResults(id: string): Promise<Record<string, number>> {
    return this.call('GET', `/jobs/${encodeURIComponent(id)}/results`);
  }

  cancelJob(id: string): Promise<{ id: string; status: string }> {
    return this.call('PUT', `/jobs/${encodeURIComponent(id)}/status/cancel`);
  }
}
