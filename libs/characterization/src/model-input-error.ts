/** An input the caller can fix: wrong rank or shape, non-finite values. The message says what was expected and what came. */
export class ModelInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelInputError';
  }
}
