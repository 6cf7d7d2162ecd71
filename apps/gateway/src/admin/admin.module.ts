import { Module } from '@nestjs/common';
import { AdminKeysController } from './admin-keys.controller.js';
import { AdminLabCredentialsController } from './admin-lab-credentials.controller.js';
import { AdminLabStreamsController } from './admin-lab-streams.controller.js';
import { ModelResultsModule } from '../model-results/model-results.module.js';

/** Admin-scope routes: API keys, lab credentials and lab streams (budgets are with the QPUs). */
@Module({ imports: [ModelResultsModule], controllers: [AdminKeysController, AdminLabCredentialsController, AdminLabStreamsController] })
export class AdminModule {}
