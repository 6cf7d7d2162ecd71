import { Module } from '@nestjs/common';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

/** An owner's signed webhooks and their deliveries (the qpu-broker sends them). */
@Module({ controllers: [WebhooksController], providers: [WebhooksService] })
export class WebhooksModule {}
