import { createServer } from 'node:net';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { RpcError } from '#qdc/contracts';
import { isConnectionSqlState, isDatabaseUnavailable } from './database-errors.js';
import { Prisma, PrismaClient } from './generated/client.js';

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** What Prisma 7 over adapter-pg threw against a Postgres cluster stopped with `pg_ctl stop -m fast` (bench/faults.ts). */
const known = (code: string, meta: Record<string, unknown>) =>
  new Prisma.PrismaClientKnownRequestError(`Invalid invocation: ${code}`, { code, clientVersion: '7', meta });
const TERMINATED_RAW = known('P2010', {
  driverAdapterError: {
    name: 'DriverAdapterError',
    cause: { originalCode: '57P01', kind: 'postgres', code: '57P01', severity: 'FATAL', message: 'terminating connection due to administrator command' },
  },
});
const UNREACHABLE_MODEL = known('P1001', {
  modelName: 'Owner',
  driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 } },
});
const UNREACHABLE_RAW = known('P2010', {
  driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 } },
});
const POOL_TIMEOUT = known('P2024', { modelName: 'ModelResult' });
const UNIQUE = known('P2002', { modelName: 'ApiKey', target: ['prefix'] });
const NO_TABLE = known('P2021', {
  modelName: 'Owner',
  driverAdapterError: { name: 'DriverAdapterError', cause: { originalCode: '42P01', kind: 'TableDoesNotExist', table: 'public.owners' } },
});

describe(isDatabaseUnavailable.name, () => {
  it('recognises a real Prisma model query against a database that is not listening', async () => {
    const pool = new pg.Pool({ connectionString: `postgresql://root@127.0.0.1:${await closedPort()}/qdc`, max: 1 });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    const error = await prisma.owner.findFirst().catch((e: unknown) => e);
    await prisma.$disconnect().catch(() => undefined);
    await pool.end().catch(() => undefined);
    expect(error).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('recognises node-postgres refusing to connect (the pool used for bulk writes)', async () => {
    const pool = new pg.Pool({ connectionString: `postgresql://root@127.0.0.1:${await closedPort()}/qdc`, max: 1 });
    const error = await pool.query('SELECT 1').catch((e: unknown) => e);
    await pool.end().catch(() => undefined);
    expect((error as { code?: string }).code).toBe('ECONNREFUSED');
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['P1001 DatabaseNotReachable (model query, server down)', UNREACHABLE_MODEL],
    ['P2010 DatabaseNotReachable (raw query, server down)', UNREACHABLE_RAW],
    ['P2010 57P01 (idle connection terminated by the shutdown)', TERMINATED_RAW],
    ['P2024 (pool timeout)', POOL_TIMEOUT],
    ['a query in flight at an immediate stop', new Error('Connection terminated unexpectedly')],
    ['pg 57P03 (the database system is starting up)', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['pg 53300 (too many connections)', Object.assign(new Error('sorry, too many clients already'), { code: '53300' })],
    ['an initialisation error', Object.assign(new Error('cannot connect'), { name: 'PrismaClientInitializationError' })],
  ])('%s → unavailable', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['P2002 unique constraint', UNIQUE],
    ['P2021 missing table (a migration fault, not a restart)', NO_TABLE],
    ['pg 23505 unique violation', Object.assign(new Error('duplicate key value'), { code: '23505' })],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['an RpcError', new RpcError('not_found', 'no such result')],
    ['nothing', undefined],
    ['a string', 'Connection'],
  ])('%s → not unavailable', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('classifies SQLSTATEs: class 08, 57P01–57P03 and 53300 only', () => {
    expect(['08000', '08003', '08006', '08P01', '57P01', '57P02', '57P03', '53300'].every(isConnectionSqlState)).toBe(true);
    expect(['57014', '23505', '42P01', '53200', '080000', 8006, undefined].some(isConnectionSqlState)).toBe(false);
  });
});
