/**
 * The only error the decoders throw for bad input. `type` follows the FastAPI
 * validation-error naming the HTTP layer reports (`value_error.npy`, ...).
 */
export class ArrayDecodeError extends Error {
  constructor(
    message: string,
    readonly type: string,
  ) {
    super(message);
    this.name = 'ArrayDecodeError';
  }
}

export const NPY_ERROR = 'value_error.npy';
export const TORCH_ERROR = 'value_error.pt';
export const FORMAT_ERROR = 'value_error.format';
export const EMPTY_ERROR = 'value_error.empty';
/** The file declares (or inflates to) more than the caller's limits allow. */
export const LIMIT_ERROR = 'value_error.too_large';
