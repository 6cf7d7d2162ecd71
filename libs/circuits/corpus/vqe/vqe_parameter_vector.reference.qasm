OPENQASM 2.0;
include "qelib1.inc";
// vqe_parameter_vector: hand-written reference with the bound angles.
qreg q[2];
creg c[2];
x q[0];
ry(0.9) q[1];
cx q[1],q[0];
rz(0.4) q[0];
ry(1.7) q[1];
measure q[0] -> c[0];
measure q[1] -> c[1];
