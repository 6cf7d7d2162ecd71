# Log-depth GHZ preparation, one Moment per round.
import cirq


def ghz_log_depth(n):
    q = cirq.LineQubit.range(n)
    moments = [cirq.Moment([cirq.H(q[0])])]
    filled = 1
    while filled < n:
        moments.append(cirq.Moment(cirq.CNOT(q[i], q[filled + i]) for i in range(min(filled, n - filled))))
        filled *= 2
    moments.append(cirq.Moment([cirq.measure(*q, key="c")]))
    return cirq.Circuit(moments)


circuit = ghz_log_depth(7)
