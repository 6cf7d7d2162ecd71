import type { AssistantRequest } from '@qdc/client';
import { SESSION_PREFIX } from '../session.js';

/**
 * The assistant's threads as this tab keeps them (the API has no route to read a thread back): messages per
 * thread, and the run being streamed — its request and the last event id — so a reload resumes it with
 * Last-Event-ID. sessionStorage: gone with the tab and at sign-out, like the key.
 */
export interface ChatFile {
  path: string;
  language: string;
  content: string;
}

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
  files?: ChatFile[];
  /** Assistant messages: `streaming` until the terminal event. */
  state?: 'streaming' | 'done' | 'stopped' | 'error' | 'interrupted';
  error?: string;
}

export interface ChatThread {
  id: string;
  /** The server's thread id, from the first answer's `completed` event. */
  serverThreadId?: string;
  title: string;
  messages: ChatMessage[];
  updatedAt: string;
}

/** The run in flight: what was sent, and the last event id received (undefined before the first event). */
export interface PendingRun {
  threadId: string;
  body: AssistantRequest;
  lastEventId?: string;
}

export interface AssistantState {
  threads: ChatThread[];
  pending?: PendingRun;
}

const STORAGE = `${SESSION_PREFIX}assistant`;
const MAX_THREADS = 50;

export function loadAssistantState(storage: Storage = sessionStorage): AssistantState {
  try {
    const parsed = JSON.parse(storage.getItem(STORAGE) ?? 'null') as AssistantState | null;
    if (parsed && Array.isArray(parsed.threads)) return parsed;
  } catch {
    // unreadable: start afresh
  }
  return { threads: [] };
}

/** Saves the threads and the run in flight together, so a reload finds the text that matches the last event id. */
export function saveAssistantState(state: AssistantState, storage: Storage = sessionStorage): void {
  const threads = [...state.threads].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1)).slice(0, MAX_THREADS);
  try {
    storage.setItem(STORAGE, JSON.stringify({ threads, pending: state.pending }));
  } catch {
    // quota: keep the newest half
    storage.setItem(STORAGE, JSON.stringify({ threads: threads.slice(0, Math.ceil(threads.length / 2)), pending: state.pending }));
  }
}

/** A thread's title: the start of its first question. */
export function threadTitle(question: string): string {
  const line = question.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'New thread';
}

/** The request for the next answer: the thread so far (finished messages only) and the new question. */
export function nextRequest(thread: ChatThread | undefined, question: string): AssistantRequest {
  const history = (thread?.messages ?? [])
    .filter((m) => m.content.trim() && (m.role === 'user' || m.state === 'done'))
    .map((m) => ({ role: m.role, content: m.content }));
  return {
    messages: [...history, { role: 'user', content: question }],
    ...(thread?.serverThreadId ? { thread_id: thread.serverThreadId } : {}),
  };
}
