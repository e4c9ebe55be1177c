package net.beaconcontroller.core.internal;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which of two connections claiming one DPID keeps it. Over plain TCP anything that can connect can claim any DPID:
 * the connection that holds a switch keeps it while it answers an echo, and the newcomer is refused; a connection
 * that does not answer in time (a switch that restarted or lost its link without closing the old connection) is
 * replaced by the newcomer.
 */
final class SwitchIdentity {
    private static final Logger log = LoggerFactory.getLogger(SwitchIdentity.class);
    /** How long the holder has to answer the echo, at most: far above a live switch's round trip. */
    static final long PROBE_MILLIS = 2000;

    private SwitchIdentity() {
    }

    /**
     * Probes {@code holder} with an echo; answered, {@code claimant} is closed; not, {@code holder} is closed (on its
     * own thread) and then {@code retry} runs on the claimant's thread if it is still connected.
     */
    static void settle(SwitchConnection holder, SwitchConnection claimant, Duration timeout, Runnable retry) {
        holder.requests().echo(timeout).whenCompleteAsync((reply, error) -> {
            if (!claimant.isConnected()) {
                return;
            }
            if (error == null && holder.isConnected()) {
                log.warn("switch {}: refused the connection from {} that claims it: the switch is connected from {}"
                        + " and answers echo", holder.getStringId(), claimant.getRemoteAddress(),
                        holder.getRemoteAddress());
                claimant.disconnect("switch " + holder.getStringId() + " is connected from "
                        + holder.getRemoteAddress() + " and answers echo");
                return;
            }
            holder.close("replaced by a new connection from " + claimant.getRemoteAddress() + ": "
                    + (error == null ? "closed meanwhile" : "no answer to an echo within " + timeout.toMillis()
                    + " ms (" + Handshake.rootMessage(error) + ")"));
            claimant.execute(() -> {
                if (claimant.isConnected()) {
                    retry.run();
                }
            });
        }, holder::execute);
    }
}
