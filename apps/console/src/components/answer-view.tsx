import { answerBlocks, inlineSpans, proseBlocks, type InlineSpan } from '../text/assistant-markdown.js';
import type { ChatMessage } from '../text/assistant-threads.js';
import { CodeBlock } from './code-block.js';

/** An assistant answer: prose, highlighted code blocks (an open fence while streaming), files, and how it ended. */
export function AnswerView({ message }: { message: ChatMessage }) {
  const streaming = message.state === 'streaming';
  const blocks = answerBlocks(message.content);
  return (
    <div class="answer-text">
      {blocks.map((block, i) =>
        block.type === 'code' ? (
          <CodeBlock key={i} code={block.code} info={block.info} streaming={streaming && !block.closed} />
        ) : (
          <Prose key={i} text={block.text} />
        ),
      )}
      {message.files?.map((file) => (
        <CodeBlock key={file.path} code={file.content} info={file.language} title={file.path} />
      ))}
      {streaming && message.content === '' && <p class="muted">Thinking…</p>}
      {message.state === 'stopped' && <p class="note">Stopped.</p>}
      {message.state === 'interrupted' && (
        <p class="note note-warning">The page was left before the answer started, so it could not be resumed. Send the question again.</p>
      )}
      {message.state === 'error' && (
        <p class="note note-error" role="alert">
          The answer failed: {message.error}
        </p>
      )}
    </div>
  );
}

function Prose({ text }: { text: string }) {
  return (
    <>
      {proseBlocks(text).map((block, i) => {
        if (block.type === 'heading')
          return (
            <p key={i} class="answer-heading">
              <strong>
                <Inline text={block.text} />
              </strong>
            </p>
          );
        if (block.type === 'list') {
          const items = block.items.map((item, j) => (
            <li key={j}>
              <Inline text={item} />
            </li>
          ));
          return block.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
        }
        return (
          <p key={i}>
            <Inline text={block.text} />
          </p>
        );
      })}
    </>
  );
}

function Inline({ text }: { text: string }) {
  return (
    <>
      {inlineSpans(text).map((span: InlineSpan, i) =>
        span.type === 'code' ? <code key={i}>{span.text}</code> : span.type === 'strong' ? <strong key={i}>{span.text}</strong> : span.text,
      )}
    </>
  );
}
