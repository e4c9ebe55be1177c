package net.beaconcontroller.cluster.internal;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import net.beaconcontroller.core.IOFSwitch;

/**
 * The switches connected to this member, one connection each. A switch may connect several times while the member
 * starts (Open vSwitch retries while it joins), and those connections finish waiting for the cluster in no set order:
 * only the newest that is open stands for the switch. A connection that closes during its handshake is never
 * {@code removedSwitch}'ed by the core, so the one it replaced, if still open, takes its place back.
 *
 * <p>Changed on the coordinator's thread only (claims, removals, a stop); read on any thread through the immutable copy
 * published after each change.
 */
final class Switches {
    private final Map<Long, SwitchState> byDpid = new HashMap<>();
    private volatile Map<Long, SwitchState> published = Map.of();

    /** @return whether {@code st} now stands for its switch (false: a newer connection does, or it has closed) */
    boolean claim(SwitchState st) {
        long dpid = st.sw.getId();
        var current = byDpid.merge(dpid, st, (old, nu) -> {
            if (old.seq > nu.seq && old.sw.isConnected()) {
                return old;
            }
            nu.previous = old; // back in its place should this one close in its handshake while it lives on
            return nu;
        });
        boolean stands = current == st && st.sw.isConnected();
        if (!stands && current == st) { // closed meanwhile: the one it replaced stands again if it is open
            var previous = st.previous;
            st.previous = null;
            if (previous != null && previous.sw.isConnected()) {
                byDpid.put(dpid, previous);
            } else {
                byDpid.remove(dpid);
            }
        }
        publish();
        return stands;
    }

    /** @return whether the switch is gone from this member (false: another connection of it stands for it) */
    boolean remove(IOFSwitch sw) {
        long dpid = sw.getId();
        var st = byDpid.get(dpid);
        if (st == null || st.sw != sw) {
            return false; // a newer connection of the same switch already took its place
        }
        var previous = st.previous;
        st.previous = null;
        boolean gone = previous == null || !previous.sw.isConnected();
        if (gone) {
            byDpid.remove(dpid);
        } else {
            byDpid.put(dpid, previous); // a newer connection closed in its handshake; the older one still stands
        }
        publish();
        return gone;
    }

    /** This member's side of a switch connected to it, or null. */
    SwitchState get(long dpid) {
        return published.get(dpid);
    }

    /** Every switch connected here: immutable. */
    Collection<SwitchState> all() {
        return published.values();
    }

    /** The datapath ids of the switches connected here: immutable. */
    Set<Long> dpids() {
        return published.keySet();
    }

    void clear() {
        byDpid.clear();
        publish();
    }

    private void publish() {
        published = Map.copyOf(byDpid);
    }
}
