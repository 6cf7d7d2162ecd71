// Simulators with exact labels for the charge-stability-diagram models (issue #4): double-dot classifiers, transition-line detectors, segmenter.
export {};
