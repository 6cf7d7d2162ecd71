import { QdcStreamInterruptedError, type AssistantRequest } from '@qdc/client';
import { UsageError, parseCommandLine } from '../cli-args.js';
import { CONNECTION_OPTIONS, userClient } from './user-client.js';

const OPTIONS = { ...CONNECTION_OPTIONS, thread: { type: 'string' }, budget: { type: 'string' }, files: { type: 'boolean' } } as const;
/** Reconnections (with Last-Event-ID) after a dropped stream before giving up. */
const RESUMES = 3;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const request = positionals.join(' ').trim();
  if (!request) throw new UsageError('chat needs a request, e.g. qdc chat "a GHZ state on 3 qubits"');
  if (values.budget !== undefined && !['low', 'medium', 'high'].includes(values.budget))
    throw new UsageError(`--budget must be low, medium or high; got '${values.budget}'`);
  const body: AssistantRequest = {
    messages: [{ role: 'user', content: request }],
    ...(values.thread ? { thread_id: values.thread } : {}),
    ...(values.budget ? { budget: values.budget as 'low' | 'medium' | 'high' } : {}),
    ...(values.files ? { code_mode: 'file' as const } : {}),
  };
  const client = userClient(values);
  const abort = new AbortController();
  const interrupt = () => abort.abort();
  process.once('SIGINT', interrupt);
  let lastEventId: string | undefined;
  let endsWithNewline = true;
  const write = (text: string) => {
    if (!text) return;
    process.stdout.write(text);
    endsWithNewline = text.endsWith('\n');
  };
  try {
    for (let resumes = 0; ; resumes++) {
      try {
        for await (const event of client.agents.stream(body, { lastEventId, signal: abort.signal })) {
          lastEventId = event.eventId;
          switch (event.type) {
            case 'token':
              write(event.content);
              break;
            case 'files':
              for (const file of event.files) write(`${endsWithNewline ? '' : '\n'}\n--- ${file.path} (${file.language}) ---\n${file.content}`);
              break;
            case 'completed':
              if (!endsWithNewline) write('\n');
              console.error(`thread ${event.thread_id}`);
              return 0;
            case 'error':
              if (!endsWithNewline) write('\n');
              console.error(`error: ${event.error}`);
              return 1;
            case 'cancelled':
              if (!endsWithNewline) write('\n');
              console.error('the assistant cancelled the run');
              return 1;
          }
        }
      } catch (error) {
        if (abort.signal.aborted) return 130;
        if (!(error instanceof QdcStreamInterruptedError) || !error.lastEventId || resumes >= RESUMES) throw error;
        lastEventId = error.lastEventId;
        console.error(`(connection lost; resuming after ${lastEventId})`);
      }
    }
  } finally {
    process.removeListener('SIGINT', interrupt);
  }
}
