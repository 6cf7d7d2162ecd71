import { ValidationFailed } from '../http/api-errors.js';
import { parseAssistantRequest } from './assistant-request.js';

describe(parseAssistantRequest.name, () => {
  const sut = parseAssistantRequest;

  it('accepts the documented fields and the deprecated mode and fast with any value', () => {
    const body = sut({
      messages: [{ role: 'user', content: 'hi' }],
      thread_id: 't',
      budget: 'low',
      code_mode: 'file',
      mode: 'whatever-old',
      fast: 'yes',
      extra: 1,
    });
    expect(body).toMatchObject({ messages: [{ role: 'user', content: 'hi' }], thread_id: 't', budget: 'low', code_mode: 'file' });
  });

  it('joins OpenAI-style content parts', () => {
    expect(
      sut({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
        ],
      }).messages[0].content,
    ).toBe('ab');
  });

  it.each([
    [undefined, ['body'], 'expected a JSON object with messages; got no body'],
    [{ messages: 'hi' }, ['body', 'messages'], 'messages is required: a list of {role, content}'],
    [{ messages: [{ role: 'user', content: 'hi' }], thread_id: '' }, ['body', 'thread_id'], 'thread_id must not be empty'],
  ])('rejects %j with a FastAPI-style issue', (body, loc, msg) => {
    try {
      sut(body);
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).issues[0]).toMatchObject({ loc, msg });
    }
  });
});
