package net.beaconcontroller.cluster.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.openflow.vendor.NiciraRole;
import net.beaconcontroller.util.Dpids;

/** The migrations of switches to this member: the target's side of {@link Migrations}. The member's thread's. */
final class Arrivals {
    private static final Logger log = LoggerFactory.getLogger(Arrivals.class);

    /** A migration this member is the target of. */
    private record Incoming(long id, String from) { }

    private final Peers peers;
    /** Told when a migration to this member ends (granted, given up, or the switch left). */
    private final LongConsumer ended;
    private final Map<Long, Incoming> incoming = new HashMap<>();
    /** Whether {@link #incoming} has any, for a stop waiting on another thread (see {@link HandOff}). */
    private volatile boolean receiving;

    Arrivals(Peers peers, LongConsumer ended) {
        this.peers = peers;
        this.ended = ended;
    }

    boolean has(long dpid) {
        return incoming.containsKey(dpid);
    }

    /** Any thread. */
    boolean any() {
        return receiving;
    }

    /** Phase 1, on the target: EQUAL, dropping the switch's messages until the marker. */
    void prepare(Message.Step s) {
        var st = peers.local(s.dpid());
        // Only from SLAVE: a connection whose handshake has not had its role yet would have its EQUAL overtaken by the
        // handshake's own role request, and as SLAVE it would never see the marker (its gate would stay shut).
        var why = st == null ? "the switch is not connected here"
                : st.sw.getRole() != NiciraRole.SLAVE ? "the switch has granted it " + st.sw.getRole() + ", not SLAVE"
                : peers.leaving() ? "this member is leaving" : null;
        if (why != null) {
            log.warn("cluster: migration of switch {} from {} to this member refused: {}", Dpids.toString(s.dpid()),
                    peers.describe(s.from()), why);
            peers.step(s.from(), Message.Phase.ABORT, s.dpid(), s.id());
            return;
        }
        var in = new Incoming(s.id(), s.from());
        incoming.put(s.dpid(), in);
        receiving = true;
        // The master gives up after migrationTimeout and says so; should that never arrive, so does this (a master
        // that leaves the cluster is given up on at once, see memberLeft).
        peers.after(2 * peers.timeout().toMillis(), () -> giveUpIncoming(s.dpid(), in));
        // The gate first, on the I/O thread: no message the switch sends us as EQUAL may pass before it.
        st.sw.execute(() -> st.awaitMarker(SwitchState.Gate.DROP_UNTIL_MARKER, s.id(), () -> { }));
        st.sw.setRole(NiciraRole.OTHER, peers.timeout()).whenComplete((r, e) -> {
            if (e != null) {
                log.warn("cluster: migration of switch {} from {}: the switch did not grant EQUAL: {}",
                        Dpids.toString(s.dpid()), peers.describe(s.from()), e.toString());
            }
            peers.step(s.from(), e == null ? Message.Phase.READY : Message.Phase.ABORT, s.dpid(), s.id());
        });
    }

    /** Phase 4, on the target: MASTER. */
    void done(Message.Step s) {
        var st = peers.local(s.dpid());
        var in = incoming.get(s.dpid());
        if (st == null || in == null || in.id() != s.id()) {
            // Given up here, or the switch left: the old master is past its hand-over and only waits for this answer
            // to end the migration; the map's new master is asserted by the rounds (or re-derived if it cannot be).
            peers.step(s.from(), Message.Phase.COMPLETE, s.dpid(), s.id());
            return;
        }
        st.sw.setRole(NiciraRole.MASTER, peers.timeout()).whenComplete((r, e) -> {
            if (e != null) {
                log.warn("cluster: switch {} refused MASTER after a hand-over: {}", st.sw.getStringId(), e.getMessage());
            }
            // The marker came before DONE on this connection, so the gate is open by now, unless this member did not
            // see it (it was not EQUAL then): a gate left shut would drop every message of the switch it masters.
            st.sw.execute(() -> {
                if (st.gate() == SwitchState.Gate.DROP_UNTIL_MARKER) {
                    log.warn("cluster: switch {}: the migration's marker never arrived here; its messages are handled"
                            + " from now on", st.sw.getStringId());
                    st.open();
                }
            });
            // At once, not behind this member's other work: the old master's figure for the migration ends here.
            peers.step(s.from(), Message.Phase.COMPLETE, s.dpid(), s.id());
            peers.after(0, () -> {
                if (incoming.remove(s.dpid(), in)) {
                    incomingEnded(s.dpid());
                }
            });
        });
    }

    /** The old master gave this one up. */
    void aborted(Message.Step s) {
        var in = incoming.get(s.dpid());
        if (in != null && in.id() == s.id()) {
            giveUpIncoming(s.dpid(), in);
        }
    }

    /** On the target of a migration that is given up, unless it is over already. */
    private void giveUpIncoming(long dpid, Incoming in) {
        var st = peers.local(dpid);
        if (st != null && incoming.remove(dpid, in)) {
            incomingEnded(dpid);
            // Back to SLAVE before the gate opens: nothing the switch sends us may be handled twice.
            st.sw.setRole(NiciraRole.SLAVE, peers.timeout()).whenComplete((r, e) -> st.sw.execute(st::open));
        }
    }

    /**
     * The old master left: given up at once, or this member would hold the switch as EQUAL, dropping its messages,
     * until its own timeout.
     */
    void memberLeft(String member) {
        Map.copyOf(incoming).forEach((dpid, in) -> {
            if (in.from().equals(member)) {
                log.warn("cluster: migration of switch {} to this member given up: its master {} left",
                        Dpids.toString(dpid), peers.describe(member));
                giveUpIncoming(dpid, in);
            }
        });
    }

    void giveUpAll() {
        Map.copyOf(incoming).forEach(this::giveUpIncoming);
    }

    void switchRemoved(long dpid) {
        if (incoming.remove(dpid) != null) {
            incomingEnded(dpid);
        }
    }

    void stop() {
        incoming.clear();
        receiving = false;
    }

    private void incomingEnded(long dpid) {
        receiving = !incoming.isEmpty();
        ended.accept(dpid);
    }
}
