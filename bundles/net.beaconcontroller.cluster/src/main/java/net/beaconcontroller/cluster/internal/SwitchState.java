package net.beaconcontroller.cluster.internal;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFFlowRemoved;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * This member's side of one connected switch. During a migration both the old master and the target receive the
 * switch's PACKET_INs; the marker flow's FLOW_REMOVED, which both see at the same point of the switch's message
 * stream, splits them: the old master handles those before it, the target those after it. The gate fields are
 * touched only on the switch's I/O thread.
 */
final class SwitchState {
    /** Cookies of marker flows: this prefix, then the migration id. */
    static final long MARKER_PREFIX = 0xbeac_0000_0000_0000L;
    /** An ethertype no host sends (IEEE 802 local experimental), so the marker flow matches nothing on its way. */
    static final int MARKER_ETHERTYPE = 0x88b5;

    enum Gate {
        /** Handles everything: not migrating. */
        OPEN,
        /** The old master: handles until the marker, then nothing. */
        HANDLE_UNTIL_MARKER,
        /** The target: handles nothing until the marker, then everything. */
        DROP_UNTIL_MARKER,
        /** The old master after the marker. */
        CLOSED
    }

    private static final AtomicLong CREATED = new AtomicLong();

    final IOFSwitch sw;
    /** Which of several connections of one switch is the newest. */
    final long seq = CREATED.incrementAndGet();
    /** The connection this one replaced while it was still open (see {@link Switches}), or null; the coordinator's. */
    SwitchState previous;
    private Gate gate = Gate.OPEN;
    private long marker;
    private Runnable onMarker;
    /**
     * PACKET_INs handled, written on the I/O thread and read once a second by the load measurement: a stale or (in
     * theory) torn read only skews one sample.
     */
    long packetIns;
    /** The count at the last load sample, and the rate it gave; the coordinator thread only. */
    long sampled;
    /** Read by handshake threads too, when they write this member's report. */
    volatile long rate;
    /** The role this member has asked the switch for and not yet heard back about; the coordinator thread only. */
    NiciraRole asking;
    /** The switch has no Nicira role extension: it stays with the member it connected to as its only controller. */
    volatile boolean rolesUnsupported;
    /**
     * The core has added the switch: its handshake, whose role request applies what the arbiter answered, is over.
     * Until then nothing else asks the switch for a role, or the handshake's answer, decided from a read that may have
     * waited seconds on Hazelcast, would undo it. Set on the switch's I/O thread, read by the coordinator.
     */
    volatile boolean active;

    SwitchState(IOFSwitch sw) {
        this.sw = sw;
    }

    /** Called for every PACKET_IN and FLOW_REMOVED before the listeners see it. */
    boolean handles(OFMessage msg) {
        if (gate != Gate.OPEN && msg instanceof OFFlowRemoved removed && removed.cookie() == marker) {
            gate = gate == Gate.HANDLE_UNTIL_MARKER ? Gate.CLOSED : Gate.OPEN;
            var then = onMarker;
            onMarker = null;
            then.run();
            return false;
        }
        if (gate == Gate.DROP_UNTIL_MARKER || gate == Gate.CLOSED) {
            return false;
        }
        if (msg instanceof OFPacketIn) {
            packetIns++;
        }
        return true;
    }

    /** Starts watching for migration {@code id}'s marker; {@code then} runs on the I/O thread when it passes. */
    void awaitMarker(Gate until, long id, Runnable then) {
        gate = until;
        marker = MARKER_PREFIX | id;
        onMarker = then;
    }

    void open() {
        gate = Gate.OPEN;
        onMarker = null;
    }

    Gate gate() {
        return gate;
    }

    static OFFlowMod marker(IOFSwitch sw, long id, OFFlowMod.Command command) {
        return OFFlowMod.builder().xid(sw.nextXid()).command(command)
                .match(OFMatch.builder().dlType(MARKER_ETHERTYPE).build()).cookie(MARKER_PREFIX | id).priority(1)
                .flags(OFFlowMod.FLAG_SEND_FLOW_REM).actions(List.of()).build();
    }
}
