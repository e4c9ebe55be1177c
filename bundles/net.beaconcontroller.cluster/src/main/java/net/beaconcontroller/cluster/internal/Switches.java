package net.beaconcontroller.cluster.internal;

import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import net.beaconcontroller.core.IOFSwitch;

/**
 * The switches connected to this member, one connection each. A switch may connect several times while the member
 * starts (Open vSwitch retries while it joins), and those connections finish waiting for the cluster in no set order:
 * only the newest that is open stands for the switch. A connection that closes during its handshake is never
 * {@code removedSwitch}'ed by the core, so the one it replaced, if still open, takes its place back.
 *
 * <p>Any thread: the handshake pool claims, the switches' I/O threads and the coordinator remove, and each change is
 * one atomic step on the map.
 */
final class Switches {
    private final Map<Long, SwitchState> byDpid = new ConcurrentHashMap<>();

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
        if (current != st || !st.sw.isConnected()) {
            byDpid.remove(dpid, st);
            return false;
        }
        return true;
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
        if (previous != null && previous.sw.isConnected() && byDpid.replace(dpid, st, previous)) {
            return false; // a newer connection closed in its handshake; the older one still stands for the switch
        }
        byDpid.remove(dpid, st);
        return true;
    }

    /** This member's side of a switch connected to it, or null. */
    SwitchState get(long dpid) {
        return byDpid.get(dpid);
    }

    /** Every switch connected here, as the map has them while it is read. */
    Collection<SwitchState> all() {
        return Collections.unmodifiableCollection(byDpid.values());
    }

    /** The datapath ids of the switches connected here: a copy. */
    Set<Long> dpids() {
        return new HashSet<>(byDpid.keySet());
    }

    void clear() {
        byDpid.clear();
    }
}
