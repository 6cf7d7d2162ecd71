import { Injectable } from '@nestjs/common';
import { PrismaService } from '#qdc/platform';
import type { AssistantChatMessage } from '#qdc/contracts';

export interface UsageRecord {
  runId: string;
  ownerId: string;
  threadId: string;
  engine: string;
  model: string | null;
  status: 'completed' | 'error' | 'cancelled';
  promptTokens: number;
  completionTokens: number;
  toolCalls: number;
  repairs: number;
  durationMs: number;
}

/**
 * Assistant threads, messages and usage (tables owned by this service). Keys are (owner, thread id).
 * Plain SQL on the Prisma service's pg pool: three statements per run, on the streaming path, where
 * Prisma's per-query work was a visible share of a run's CPU (bench:assistant (b)).
 */
@Injectable()
export class ThreadsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The thread's messages in order; creates the thread (with this id, for this owner) when it is new. */
  async openThread(ownerId: string, threadId: string): Promise<AssistantChatMessage[]> {
    // Independent statements (a new thread has no messages yet), sent concurrently: one round trip of latency.
    const [, rows] = await Promise.all([
      this.prisma.pool.query(
        `INSERT INTO assistant_threads (owner_id, id) VALUES ($1, $2) ON CONFLICT (owner_id, id) DO UPDATE SET updated_at = CURRENT_TIMESTAMP`,
        [ownerId, threadId],
      ),
      this.prisma.pool.query<{ role: AssistantChatMessage['role']; content: string }>(
        `SELECT role, content FROM assistant_messages WHERE owner_id = $1 AND thread_id = $2 ORDER BY id`,
        [ownerId, threadId],
      ),
    ]);
    return rows.rows.map((r) => ({ role: r.role, content: r.content }));
  }

  /** Creates a thread the server named (a fresh UUID): nothing to read back. */
  async createThread(ownerId: string, threadId: string): Promise<void> {
    await this.prisma.pool.query(`INSERT INTO assistant_threads (owner_id, id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [ownerId, threadId]);
  }

  async append(ownerId: string, threadId: string, runId: string, messages: AssistantChatMessage[]): Promise<void> {
    if (!messages.length) return;
    await this.prisma.pool.query(
      `INSERT INTO assistant_messages (owner_id, thread_id, run_id, role, content)
       SELECT $1, $2, $3, m.role, m.content FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS m(role, content, n) ORDER BY m.n`,
      [ownerId, threadId, runId, messages.map((m) => m.role), messages.map((m) => m.content)],
    );
  }

  async recordUsage(u: UsageRecord): Promise<void> {
    await this.prisma.pool.query(
      `INSERT INTO assistant_usage (run_id, owner_id, thread_id, engine, model, status, prompt_tokens, completion_tokens, tool_calls, repairs, duration_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (run_id) DO UPDATE SET status = EXCLUDED.status, prompt_tokens = EXCLUDED.prompt_tokens, completion_tokens = EXCLUDED.completion_tokens,
         tool_calls = EXCLUDED.tool_calls, repairs = EXCLUDED.repairs, duration_ms = EXCLUDED.duration_ms`,
      [u.runId, u.ownerId, u.threadId, u.engine, u.model, u.status, u.promptTokens, u.completionTokens, u.toolCalls, u.repairs, u.durationMs],
    );
  }
}
