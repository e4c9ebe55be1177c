package net.beaconcontroller.core.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which connection holds each DPID. Over plain TCP anything that can connect can claim any DPID, so a connection's
 * DPID is settled as soon as the switch names itself (its features reply), before anything is sent that changes the
 * switch (SET_CONFIG, a role request, the wipe of its flows) and before the cluster, the initializers or the
 * listeners hear of it. The first connection to claim a DPID holds it until it closes; a later claimant is refused
 * while the holder shows a sign of life, and takes the DPID over when the holder does not (a switch that restarted,
 * or whose link died, without closing its old connection). Thread-safe: a claim is granted on the claimant's I/O
 * thread, the holder is probed and closed on its own.
 */
final class SwitchIdentity {
    private static final Logger log = LoggerFactory.getLogger(SwitchIdentity.class);
    /**
     * The longest a holder is given to show a sign of life, whatever the echo timeout. It is as long as a switch that
     * restarted is kept waiting when its old connection died without a close (power loss, a cut link), so it must not
     * grow with an echo timeout raised for slow switches; 10 s is when Open vSwitch itself gives a silent controller
     * up (twice its 5 s inactivity probe), so a holder silent that long after an echo is one its switch would have
     * left too.
     */
    static final Duration MAX_PROBE = Duration.ofSeconds(10);

    /** A claim refused because a live connection holds the DPID. */
    static final class ClaimRefusedException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        ClaimRefusedException(String message) {
            super(message);
        }
    }

    private final Map<Long, SwitchConnection> holders = new ConcurrentHashMap<>();
    private final RefusalLog refusals = new RefusalLog(RefusalLog.INTERVAL, System::nanoTime);

    /**
     * How long a holder has to show a sign of life: half of {@code controller.echoTimeout} (the silence Beacon
     * tolerates from any switch), so that a switch that is busy but within its keepalive is not taken for dead, while
     * the claimant, whose handshake must end within the same timeout of its connection, keeps the other half for the
     * rest of it; at most {@link #MAX_PROBE}.
     */
    static Duration probeWindow(int echoTimeoutSeconds) {
        var half = Duration.ofMillis(echoTimeoutSeconds * 1000L / 2);
        return half.compareTo(MAX_PROBE) > 0 ? MAX_PROBE : half;
    }

    /**
     * Claims the DPID of {@code claimant}, known from its features reply. Completes on the claimant's I/O thread once
     * the claimant holds it (at once when nobody does; after the holder was closed when it showed no sign of life
     * within {@code window}); fails with {@link ClaimRefusedException}, the claimant being closed, when the holder is
     * alive. Claimant's I/O thread.
     */
    CompletableFuture<Void> claim(SwitchConnection claimant, Duration window) {
        var granted = new CompletableFuture<Void>();
        claim(claimant, window, granted);
        return granted;
    }

    private void claim(SwitchConnection claimant, Duration window, CompletableFuture<Void> granted) {
        var holder = holders.putIfAbsent(claimant.getId(), claimant);
        if (holder == null) {
            granted.complete(null);
            return;
        }
        holder.probeAlive(window).whenCompleteAsync((alive, error) -> {
            if (error != null) {
                granted.completeExceptionally(error); // the handshake closes the claimant, naming it
            } else if (!claimant.isConnected()) {
                granted.completeExceptionally(claimant.disconnected());
            } else if (alive && holder.isConnected()) {
                refuse(holder, claimant, granted);
            } else {
                holder.close("replaced by a new connection from " + claimant.getRemoteAddress()
                        + ": nothing received within " + window.toMillis() + " ms of an echo request");
                // Closed, the holder has left the DPID and its listeners have heard removedSwitch: the claimant
                // tries again (a third connection may have claimed it meanwhile).
                claimant.execute(() -> {
                    if (claimant.isConnected()) {
                        claim(claimant, window, granted);
                    } else {
                        granted.completeExceptionally(claimant.disconnected());
                    }
                });
            }
        }, holder::execute);
    }

    private void refuse(SwitchConnection holder, SwitchConnection claimant, CompletableFuture<Void> granted) {
        String reason = "switch " + holder.getStringId() + " is connected from " + holder.getRemoteAddress()
                + " and alive";
        int unlogged = refusals.admit(holder.getId());
        if (unlogged >= 0) {
            log.warn("switch {}: refused the connection from {} that claims it: the switch is connected from {} and"
                    + " alive{}", holder.getStringId(), claimant.getRemoteAddress(), holder.getRemoteAddress(),
                    unlogged == 0 ? "" : " (" + unlogged + " more claims refused since the last such line)");
        }
        claimant.disconnect(reason);
        granted.completeExceptionally(new ClaimRefusedException(reason));
    }

    /** {@code sw} closed: the DPID it held, if it did, is free. Called after its listeners heard removedSwitch. */
    void release(SwitchConnection sw) {
        if (sw.getFeatures() != null && holders.remove(sw.getId(), sw)) {
            int unlogged = refusals.forget(sw.getId());
            if (unlogged > 0) {
                log.warn("switch {}: {} more claims refused while it was connected from {}", sw.getStringId(),
                        unlogged, sw.getRemoteAddress());
            }
        }
    }
}
