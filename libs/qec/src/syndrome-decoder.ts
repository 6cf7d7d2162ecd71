// What a decoder of one stabilizer type does: detection events in, the net data correction and logical flip out.
import type { StabilizerType } from './rotated-surface-code.js';

export interface SyndromeDecoder {
  /**
   * Decodes the detection events of stabilizers of `type` (events[t * m + k], 0/1) and writes the net correction
   * (D² entries, 0/1; a Z correction for type 0, X for type 1) into `correction`. Returns the predicted flip of
   * that type's logical observable (the correction's parity on its support). The correction's syndrome equals the
   * sum of all events per stabilizer, i.e. the last round's syndrome.
   */
  decode(type: StabilizerType, events: Uint8Array, correction: Uint8Array): number;
}
