"""Baseline for bench:perf (d): per-trace time of scipy.signal.find_peaks on the same traces.

Each trace gets what a careful user would do with SciPy: a robust noise estimate (MAD of the
first difference) and find_peaks with a prominence threshold and a minimum distance.
Usage: python3 scipy_find_peaks.py traces.npy  → prints JSON {"per_trace_us": ..., "peaks": ...}
"""
import json
import sys
import time

import numpy as np
from scipy.signal import find_peaks

traces = np.load(sys.argv[1])
total = 0
best = float("inf")
for _ in range(3):
    start = time.perf_counter()
    total = 0
    for trace in traces:
        sigma = 1.4826 * np.median(np.abs(np.diff(trace) - np.median(np.diff(trace)))) / np.sqrt(2)
        peaks, _ = find_peaks(trace, prominence=4 * sigma, distance=3)
        total += len(peaks)
    best = min(best, time.perf_counter() - start)
print(json.dumps({"per_trace_us": best / len(traces) * 1e6, "peaks": total}))
