import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { NatsService } from './nats.service.js';
import { RpcServer } from './rpc-server.js';

@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [NatsService, RpcServer],
  exports: [NatsService],
})
export class NatsModule {}
