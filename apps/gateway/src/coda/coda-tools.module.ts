import { Module } from '@nestjs/common';
import { CodaBodyErrors } from './coda-body-errors.js';
import { CodaToolsController } from './coda-tools.controller.js';
import { CodaToolsService } from './coda-tools.service.js';

/** The circuit tools (transpile, simulate, to-openqasm3, estimate-resources, split-circuit) and coda's error bodies. */
@Module({ controllers: [CodaToolsController], providers: [CodaToolsService, CodaBodyErrors] })
export class CodaToolsModule {}
