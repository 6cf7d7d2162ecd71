import { markerIndices } from './frame-markers.js';

describe('markerIndices', () => {
  it('collects *_index and *_indices fields, skipping anything else', () => {
    expect(markerIndices({ peak_indices: [3, 17], peak_heights: [1, 2], cut_off_index: 40, transition_index: null, classification: true })).toEqual([
      3, 17, 40,
    ]);
    expect(markerIndices({ dip_indices: [[1, 2]], threshold_index: Number.NaN })).toEqual([]);
  });
});
