package net.beaconcontroller.maple;

/**
 * A policy answered differently for packets it could not tell apart: a new trace contradicts the trace tree (it
 * read or tested something else at the same point, or ended with another route). Either the policy depends on
 * something it does not read through {@link Packet} or {@link Environment}, or an environment change was not
 * reported. The trace is not added.
 */
public final class InconsistentPolicyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InconsistentPolicyException(String message) {
        super(message);
    }
}
