package net.beaconcontroller.routing.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One switch's packets that came in over a link and whose route leaves by that same port: a switch upstream sent
 * them here by a flow that no longer fits the network (its destination moved while the controller was away, and the
 * flow was kept), and sending them back would bounce them between the two switches. The flows towards such a
 * destination are deleted at most once a second per switch, however many packets follow.
 *
 * <p>Confined to the switch's I/O thread (one per switch, as a {@code SwitchLocal}).
 */
final class Bounces {
    private static final long QUIET_NANOS = 1_000_000_000L;
    /** Destinations remembered at most; the oldest is forgotten first. */
    private static final int MAX_DESTINATIONS = 1024;

    private final Map<Long, Long> lastCleanUp = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
            return size() > MAX_DESTINATIONS;
        }
    };

    /** Whether a packet to {@code mac} on {@code vlan} bouncing at {@code now} should have its flows cleaned up. */
    boolean cleanUp(long mac, int vlan, long now) {
        long key = mac | (long) (vlan & 0xffff) << 48;
        var last = lastCleanUp.get(key);
        if (last != null && now - last < QUIET_NANOS) {
            return false;
        }
        lastCleanUp.put(key, now);
        return true;
    }
}
