// Simulators with exact labels for the 1-D characterization models (issue #3): Coulomb-blockade classifiers, pinch-off and turn-on classifiers and extractors.
export {};
