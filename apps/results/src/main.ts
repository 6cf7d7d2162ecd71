import 'reflect-metadata';
import { exitOnStartupError } from '#qdc/platform';
import { startResults } from './results.start.js';

startResults().catch(exitOnStartupError('results'));
