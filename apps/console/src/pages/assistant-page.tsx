import { QdcStreamInterruptedError, type AssistantStreamEvent } from '@qdc/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useApp } from '../app-context.js';
import { AnswerView } from '../components/answer-view.js';
import { describeError } from '../components/error-note.js';
import { useTitle } from '../hooks.js';
import { isSignedIn } from '../session.js';
import {
  loadAssistantState,
  nextRequest,
  saveAssistantState,
  threadTitle,
  type AssistantState,
  type ChatMessage,
  type ChatThread,
} from '../text/assistant-threads.js';

const SAVE_EVERY_MS = 150;
const RESUME_ATTEMPTS = 3;

/** Replaces the last message of a thread (the assistant's answer being streamed). */
function updateAnswer(state: AssistantState, threadId: string, change: (m: ChatMessage) => ChatMessage): AssistantState {
  return {
    ...state,
    threads: state.threads.map((t) =>
      t.id === threadId ? { ...t, updatedAt: new Date().toISOString(), messages: t.messages.map((m, i) => (i === t.messages.length - 1 ? change(m) : m)) } : t,
    ),
  };
}

function applyEvent(state: AssistantState, threadId: string, event: AssistantStreamEvent): AssistantState {
  let next = state;
  switch (event.type) {
    case 'token':
      next = updateAnswer(state, threadId, (m) => ({ ...m, content: m.content + event.content }));
      break;
    case 'files':
      next = updateAnswer(state, threadId, (m) => ({ ...m, files: event.files }));
      break;
    case 'completed':
      next = updateAnswer(state, threadId, (m) => ({ ...m, state: 'done' }));
      next = { ...next, threads: next.threads.map((t) => (t.id === threadId ? { ...t, serverThreadId: event.thread_id } : t)) };
      break;
    case 'error':
      next = updateAnswer(state, threadId, (m) => ({ ...m, state: 'error', error: event.error }));
      break;
    case 'cancelled':
      next = updateAnswer(state, threadId, (m) => ({ ...m, state: 'stopped' }));
      break;
  }
  return next.pending ? { ...next, pending: { ...next.pending, lastEventId: event.eventId } } : next;
}

/**
 * The unified assistant as a chat: tokens appear as they stream, code blocks are highlighted with a Copy button,
 * threads are listed, and a reload (or a visit to another page) mid-answer resumes the run with Last-Event-ID.
 */
export function AssistantPage() {
  useTitle('Assistant');
  const { api, announce } = useApp();
  const [state, setState] = useState<AssistantState>(() => loadAssistantState());
  const stateRef = useRef(state);
  const [currentId, setCurrentId] = useState<string | undefined>(() => state.pending?.threadId ?? state.threads[0]?.id);
  const [message, setMessage] = useState('');
  const controller = useRef<AbortController | undefined>(undefined);
  /** The page is going away (reload, close, another page): a dropped stream then stays pending, to be resumed. */
  const detached = useRef(false);
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const messageInput = useRef<HTMLTextAreaElement>(null);

  const flush = () => {
    clearTimeout(saveTimer.current);
    saveTimer.current = undefined;
    if (isSignedIn()) saveAssistantState(stateRef.current);
  };
  const mutate = (change: (s: AssistantState) => AssistantState, immediate = false) => {
    stateRef.current = change(stateRef.current);
    setState(stateRef.current);
    if (immediate) flush();
    else saveTimer.current ??= setTimeout(flush, SAVE_EVERY_MS);
  };

  const run = async (threadId: string, lastEventId?: string) => {
    const pending = stateRef.current.pending;
    if (!pending) return;
    const abort = new AbortController();
    controller.current = abort;
    let last = lastEventId;
    for (let attempt = 0; ; attempt++) {
      try {
        for await (const event of api.client.agents.stream(pending.body, { lastEventId: last, signal: abort.signal })) {
          last = event.eventId;
          mutate((s) => applyEvent(s, threadId, event));
        }
        announce('The assistant finished answering.');
        break;
      } catch (error) {
        if (detached.current) return; // keep the run pending: the next visit resumes it
        if (abort.signal.aborted) {
          mutate((s) => updateAnswer(s, threadId, (m) => ({ ...m, state: 'stopped' })));
          announce('Stopped.');
          break;
        }
        if (error instanceof QdcStreamInterruptedError && error.lastEventId && attempt < RESUME_ATTEMPTS) {
          last = error.lastEventId;
          await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
          continue;
        }
        mutate((s) => updateAnswer(s, threadId, (m) => ({ ...m, state: 'error', error: describeError(error) })));
        announce('The answer failed.');
        break;
      }
    }
    if (controller.current === abort) controller.current = undefined;
    mutate((s) => ({ ...s, pending: undefined }), true);
  };

  // A run left pending by a reload or by leaving the page resumes after its last event.
  useEffect(() => {
    const pending = stateRef.current.pending;
    if (pending?.lastEventId) run(pending.threadId, pending.lastEventId);
    else if (pending) {
      // Nothing arrived before the page went away, so there is no event to resume after.
      mutate(
        (s) => ({
          ...updateAnswer(s, pending.threadId, (m) => ({ ...m, state: 'interrupted' })),
          pending: undefined,
        }),
        true,
      );
    }
    const onPageHide = () => {
      detached.current = true;
      flush();
    };
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      detached.current = true;
      controller.current?.abort();
      flush();
    };
  }, []);

  const streaming = state.pending !== undefined;
  const current = state.threads.find((t) => t.id === currentId);

  const send = (event: Event) => {
    event.preventDefault();
    const question = message.trim();
    if (!question) {
      messageInput.current?.focus();
      return;
    }
    if (streaming) return;
    const base: ChatThread = current ?? { id: crypto.randomUUID?.() ?? String(Date.now()), title: threadTitle(question), messages: [], updatedAt: '' };
    const body = nextRequest(current, question);
    const thread: ChatThread = {
      ...base,
      updatedAt: new Date().toISOString(),
      messages: [...base.messages, { role: 'user', content: question }, { role: 'assistant', content: '', state: 'streaming' }],
    };
    mutate((s) => ({ threads: [thread, ...s.threads.filter((t) => t.id !== thread.id)], pending: { threadId: thread.id, body } }), true);
    setCurrentId(thread.id);
    setMessage('');
    run(thread.id);
  };

  const threads = [...state.threads].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
  return (
    <>
      <h1 tabIndex={-1}>Assistant</h1>
      <div class="assistant-layout">
        <nav class="threads" aria-labelledby="threads-heading">
          <h2 id="threads-heading">Threads</h2>
          <button
            type="button"
            disabled={streaming}
            onClick={() => {
              setCurrentId(undefined);
              messageInput.current?.focus();
            }}
          >
            New thread
          </button>
          {threads.length === 0 ? (
            <p class="hint">Your threads in this tab appear here.</p>
          ) : (
            <ul class="thread-list">
              {threads.map((t) => (
                <li key={t.id}>
                  <button
                    type="button"
                    class="thread-button"
                    aria-current={t.id === currentId ? 'true' : undefined}
                    disabled={streaming}
                    onClick={() => setCurrentId(t.id)}
                  >
                    {t.title}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </nav>
        <section class="chat" aria-labelledby="chat-heading">
          <h2 id="chat-heading">{current ? current.title : 'New thread'}</h2>
          {current && current.messages.length > 0 ? (
            <ol class="messages">
              {current.messages.map((m, i) => (
                <li key={i} class={`message message-${m.role}`} aria-busy={m.state === 'streaming'}>
                  <h3 class="message-author">{m.role === 'user' ? 'You' : 'Assistant'}</h3>
                  {m.role === 'user' ? <p class="question">{m.content}</p> : <AnswerView message={m} />}
                </li>
              ))}
            </ol>
          ) : (
            <p class="hint">Ask for a circuit (“a Bell state in Qiskit”), an explanation, or help with a measurement.</p>
          )}
          <form class="composer" onSubmit={send}>
            <label for="message">Message</label>
            <textarea
              id="message"
              ref={messageInput}
              rows={3}
              value={message}
              onInput={(e) => setMessage(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) send(e);
              }}
              aria-describedby="message-hint"
            />
            <p id="message-hint" class="hint">
              Ctrl+Enter sends.
            </p>
            <div class="buttons">
              <button type="submit" disabled={streaming}>
                Send
              </button>
              {streaming && (
                <button type="button" class="danger" onClick={() => controller.current?.abort()}>
                  Stop
                </button>
              )}
            </div>
          </form>
        </section>
      </div>
    </>
  );
}
