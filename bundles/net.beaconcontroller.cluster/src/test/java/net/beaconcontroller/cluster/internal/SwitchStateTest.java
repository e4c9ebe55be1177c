package net.beaconcontroller.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.openflow.OFFlowRemoved;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;

/** The hand-over gate: the marker's FLOW_REMOVED splits one message stream between the old master and the target. */
class SwitchStateTest {
    private static final OFPacketIn PACKET_IN = new OFPacketIn(1, OFMessage.NO_BUFFER, 60, 1, OFPacketIn.Reason.NO_MATCH,
            ByteBuffer.allocate(60));

    private static OFFlowRemoved removed(long cookie) {
        return new OFFlowRemoved(2, OFMatch.ALL, cookie, 1, OFFlowRemoved.Reason.DELETE, 0, 0, 0, 0, 0);
    }

    @Test
    void theOldMasterHandlesUntilTheMarkerAndTheTargetFromIt() {
        var old = new SwitchState(null);
        var target = new SwitchState(null);
        var passed = new AtomicInteger();
        old.awaitMarker(SwitchState.Gate.HANDLE_UNTIL_MARKER, 9, passed::incrementAndGet);
        target.awaitMarker(SwitchState.Gate.DROP_UNTIL_MARKER, 9, passed::incrementAndGet);
        // The same stream reaches both: before the marker only the old master handles, after it only the target.
        assertTrue(old.handles(PACKET_IN));
        assertFalse(target.handles(PACKET_IN));
        assertFalse(old.handles(removed(SwitchState.MARKER_PREFIX | 9)));
        assertFalse(target.handles(removed(SwitchState.MARKER_PREFIX | 9)));
        assertEquals(2, passed.get());
        assertFalse(old.handles(PACKET_IN));
        assertTrue(target.handles(PACKET_IN));
        assertEquals(1, old.packetIns);
        assertEquals(1, target.packetIns);
    }

    @Test
    void anotherMigrationsMarkerOrAnApplicationsFlowRemovedDoesNotMoveTheGate() {
        var st = new SwitchState(null);
        st.awaitMarker(SwitchState.Gate.DROP_UNTIL_MARKER, 9, () -> { });
        assertFalse(st.handles(removed(SwitchState.MARKER_PREFIX | 8)));
        assertEquals(SwitchState.Gate.DROP_UNTIL_MARKER, st.gate());
        st.open();
        assertTrue(st.handles(removed(SwitchState.MARKER_PREFIX | 9)), "an open gate passes every FLOW_REMOVED");
    }
}
