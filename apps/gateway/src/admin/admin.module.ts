import { Module } from '@nestjs/common';
import { AdminKeysController } from './admin-keys.controller.js';
import { AdminLabStreamsController } from './admin-lab-streams.controller.js';

/** Admin-scope routes: API keys and lab streams (budgets are with the QPUs). */
@Module({ controllers: [AdminKeysController, AdminLabStreamsController] })
export class AdminModule {}
