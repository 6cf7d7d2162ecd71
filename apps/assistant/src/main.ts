import 'reflect-metadata';
import { exitOnStartupError } from '#qdc/platform';
import { startAssistant } from './assistant.start.js';

startAssistant().catch(exitOnStartupError('assistant'));
