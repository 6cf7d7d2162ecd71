import { Module } from '@nestjs/common';
import { ModelResultsController } from './model-results.controller.js';
import { ModelResultsService } from './model-results.service.js';

/** Stored results: list, get, download (zip), vote, delete. */
@Module({ controllers: [ModelResultsController], providers: [ModelResultsService] })
export class ModelResultsModule {}
