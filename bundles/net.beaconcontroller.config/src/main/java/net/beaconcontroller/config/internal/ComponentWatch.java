package net.beaconcontroller.config.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** What Declarative Services did with a configuration: the runtime's DTOs in the product, a fake in tests. */
interface ComponentWatch {

    enum Result { APPLIED, FAILED, NO_COMPONENT, TIMEOUT }

    /**
     * @param component  the (first) component using the PID, or "" when there is none
     * @param modifiable whether it has a modified method (changes apply without a restart)
     * @param failure    with {@link Result#FAILED}: the runtime's failure text (a stack trace)
     */
    record Outcome(Result result, String component, boolean modifiable, String failure) {
    }

    /** A component that failed to activate. */
    record Failure(String component, long bundle, String failure) {
    }

    /**
     * Waits until every enabled component configured by {@code pid} has received {@code expected} and settled (active,
     * failed, or waiting for a reference), or the timeout passes.
     */
    Outcome await(String pid, Map<String, Object> expected, Duration timeout) throws InterruptedException;

    /** Every component configuration that is in the FAILED_ACTIVATION state now. */
    List<Failure> failures();
}
