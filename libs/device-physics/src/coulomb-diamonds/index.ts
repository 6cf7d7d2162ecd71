// Simulators with exact labels for the Coulomb diamonds, anticrossings and electron unloading (issue #5).
export {};
