import { Module } from '@nestjs/common';
import { ModelResultsController } from './model-results.controller.js';
import { ModelResultsService } from './model-results.service.js';

/** Stored results: list, get, download (zip), vote, delete; the service also serves the admin's lab-stream downloads. */
@Module({ controllers: [ModelResultsController], providers: [ModelResultsService], exports: [ModelResultsService] })
export class ModelResultsModule {}
