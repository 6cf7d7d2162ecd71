import { Module } from '@nestjs/common';
import { ApiKeyVerifier } from './api-key.verifier.js';
import { Authenticator } from './authenticator.js';
import { RateLimiter } from './rate-limiter.js';

/** API keys, scopes and the per-key rate limit: the Authenticator every route (the guard, the plain Fastify routes) uses. */
@Module({
  providers: [ApiKeyVerifier, RateLimiter, Authenticator],
  exports: [Authenticator],
})
export class AuthModule {}
