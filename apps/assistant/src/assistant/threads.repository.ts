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

/** Assistant threads, messages and usage (tables owned by this service). Keys are (owner, thread id). */
@Injectable()
export class ThreadsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The thread's messages in order; creates the thread (with this id, for this owner) when it is new. */
  async openThread(ownerId: string, threadId: string): Promise<AssistantChatMessage[]> {
    // Independent statements (a new thread has no messages yet), sent concurrently: one round trip of latency.
    const [, rows] = await Promise.all([
      this.prisma.assistantThread.upsert({
        where: { ownerId_id: { ownerId, id: threadId } },
        create: { ownerId, id: threadId },
        update: { updatedAt: new Date() },
      }),
      this.prisma.assistantMessage.findMany({ where: { ownerId, threadId }, orderBy: { id: 'asc' }, select: { role: true, content: true } }),
    ]);
    return rows.map((r: { role: string; content: string }) => ({ role: r.role as AssistantChatMessage['role'], content: r.content }));
  }

  /** Creates a thread the server named (a fresh UUID): nothing to read back. */
  async createThread(ownerId: string, threadId: string): Promise<void> {
    await this.prisma.assistantThread.create({ data: { ownerId, id: threadId } });
  }

  async append(ownerId: string, threadId: string, runId: string, messages: AssistantChatMessage[]): Promise<void> {
    if (!messages.length) return;
    await this.prisma.assistantMessage.createMany({ data: messages.map((m) => ({ ownerId, threadId, runId, role: m.role, content: m.content })) });
  }

  async recordUsage(usage: UsageRecord): Promise<void> {
    await this.prisma.assistantUsage.upsert({ where: { runId: usage.runId }, create: usage, update: usage });
  }
}
