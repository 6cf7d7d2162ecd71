import { jest } from '@jest/globals';
import { RpcError } from '#qdc/contracts';
import type { QdcConfig } from '#qdc/platform';
import type { DeliveryRow, WebhookRow, WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

const OWNER = '00000000-0000-4000-8000-000000000001';
const HOOK = '00000000-0000-4000-8000-0000000000aa';

function factory(config: Partial<QdcConfig> = {}) {
  const rows = new Map<string, WebhookRow>();
  const mocks = {
    repository: {
      create: jest.fn(async (row: Omit<WebhookRow, 'createdAt'>) => {
        const stored = { ...row, createdAt: new Date('2026-11-28T12:00:00Z') };
        rows.set(row.id, stored);
        return stored;
      }),
      find: jest.fn(async (ownerId: string, id: string) => (rows.get(id)?.ownerId === ownerId ? rows.get(id)! : null)),
      delete: jest.fn(async (ownerId: string, id: string) => rows.get(id)?.ownerId === ownerId && rows.delete(id)),
      setSecret: jest.fn(async (ownerId: string, id: string, secret: string) => {
        const row = rows.get(id);
        if (row?.ownerId !== ownerId) return null;
        row.secret = secret;
        return row;
      }),
      deliveries: jest.fn(async (): Promise<DeliveryRow[]> => []),
    },
  };
  const sut = new WebhooksService(
    mocks.repository as unknown as WebhooksRepository,
    {
      QDC_WEBHOOK_ALLOW_LOCAL_HTTP: false,
      QDC_WEBHOOK_ALLOW_PRIVATE_NETWORKS: false,
      ...config,
    } as QdcConfig,
  );
  return { sut, mocks };
}

describe(WebhooksService.name, () => {
  it('creates a webhook with a new secret shown once, its hint in the listing, the events once each', async () => {
    const { sut, mocks } = factory();
    const created = await sut.create({ ownerId: OWNER, url: 'https://hooks.example.org/q', events: ['qpu.job.status', 'qpu.job.status'], description: null });
    expect(created).toEqual({
      id: expect.any(String),
      url: 'https://hooks.example.org/q',
      events: ['qpu.job.status'],
      description: null,
      created_at: '2026-11-28T12:00:00.000Z',
      secret: expect.stringMatching(/^whsec_/),
      secret_hint: created.secret.slice(0, 10),
    });
    expect(mocks.repository.create).toHaveBeenCalledWith(expect.objectContaining({ ownerId: OWNER, secret: created.secret }));
  });

  it('refuses a URL outside the policy before storing anything (422 on body.url)', async () => {
    const { sut, mocks } = factory();
    const refused = sut.create({ ownerId: OWNER, url: 'http://127.0.0.1:9000/hook', events: ['qpu.job.status'], description: null });
    await expect(refused).rejects.toMatchObject({ code: 'invalid_input', details: { loc: ['body', 'url'], type: 'url_scheme' } });
    expect(mocks.repository.create).not.toHaveBeenCalled();
    const local = factory({ QDC_WEBHOOK_ALLOW_LOCAL_HTTP: true });
    await expect(
      local.sut.create({ ownerId: OWNER, url: 'http://127.0.0.1:9000/hook', events: ['lab_stream.result'], description: 'lab' }),
    ).resolves.toMatchObject({
      url: 'http://127.0.0.1:9000/hook',
    });
  });

  it('answers not_found for another owner’s or an unknown webhook: delete, rotation, deliveries', async () => {
    const { sut } = factory();
    const created = await sut.create({ ownerId: OWNER, url: 'https://hooks.example.org/q', events: ['qpu.job.status'], description: null });
    const other = '00000000-0000-4000-8000-000000000002';
    const notFound = { code: 'not_found', message: `Webhook not found: '${created.id}'` };
    await expect(sut.delete({ ownerId: other, webhookId: created.id })).rejects.toMatchObject(notFound);
    await expect(sut.rotateSecret({ ownerId: other, webhookId: created.id })).rejects.toMatchObject(notFound);
    await expect(sut.deliveries({ ownerId: other, webhookId: created.id, skip: 0, limit: 10 })).rejects.toBeInstanceOf(RpcError);
    await expect(sut.delete({ ownerId: OWNER, webhookId: HOOK })).rejects.toMatchObject({ code: 'not_found' });
    const rotated = await sut.rotateSecret({ ownerId: OWNER, webhookId: created.id });
    expect(rotated.secret).not.toBe(created.secret);
    expect(await sut.delete({ ownerId: OWNER, webhookId: created.id })).toEqual({ detail: 'Webhook deleted' });
  });

  it('lists deliveries with next_attempt_at only while pending', async () => {
    const { sut, mocks } = factory();
    const created = await sut.create({ ownerId: OWNER, url: 'https://hooks.example.org/q', events: ['qpu.job.status'], description: null });
    const at = new Date('2026-11-28T12:00:01Z');
    const base: DeliveryRow = {
      id: 'd1',
      webhookId: created.id,
      eventType: 'qpu.job.status',
      status: 'failed',
      attempts: 41,
      createdAt: at,
      firstAttemptAt: at,
      lastAttemptAt: at,
      lastStatusCode: 500,
      lastError: 'HTTP 500',
      nextAttemptAt: at,
      deliveredAt: null,
      attemptLog: [],
    };
    mocks.repository.deliveries.mockResolvedValueOnce([base, { ...base, id: 'd2', status: 'pending' }]);
    const list = await sut.deliveries({ ownerId: OWNER, webhookId: created.id, skip: 0, limit: 10, status: undefined });
    expect(list.map((d) => [d.id, d.status, d.next_attempt_at])).toEqual([
      ['d1', 'failed', null],
      ['d2', 'pending', '2026-11-28T12:00:01.000Z'],
    ]);
    expect(mocks.repository.deliveries).toHaveBeenCalledWith(created.id, { ownerId: OWNER, webhookId: created.id, skip: 0, limit: 10, status: undefined });
  });
});
