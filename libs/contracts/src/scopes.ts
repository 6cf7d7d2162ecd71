import { z } from 'zod';

export const Scope = z.enum(['control', 'coda', 'admin']);
export type Scope = z.infer<typeof Scope>;

/** Authenticated caller, as resolved from an API key. */
export const Principal = z.object({
  keyId: z.string().uuid(),
  ownerId: z.string().uuid(),
  ownerName: z.string(),
  scopes: z.array(Scope),
});
export type Principal = z.infer<typeof Principal>;
