package net.beaconcontroller.benchmarks;

import java.nio.ByteBuffer;
import java.util.List;

import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.util.CoarseClock;
import net.beaconcontroller.util.MacAddress;
import net.beaconcontroller.util.MacTable;

/**
 * The learning switch's PACKET_IN handling before the app platform (commit 36797da), as the reference of
 * {@link PacketInPathBenchmark}: MACs read straight from {@link OFPacketIn#frame()}, the match from
 * {@link OFMatch#fromPacket}, the table in the switch's {@code HashMap} local state, settings in final fields.
 * (Only {@code fromPacket} is today's: it now wraps a new Frame, which escape analysis removes.)
 */
final class OldLearningSwitch {
    private static final List<OFAction> FLOOD = List.of(new OFActionOutput(OFPort.FLOOD, 0));
    private static final List<OFAction> DROP = List.of();

    private final Object tableKey = new Object();
    private final int idleTimeout = 5;
    private final int hardTimeout = 0;
    private final int tableSize;
    private final int macAge = 300;

    OldLearningSwitch(int tableSize) {
        this.tableSize = tableSize;
    }

    void packetIn(BenchSwitch sw, OFPacketIn pi) {
        ByteBuffer frame = pi.frame();
        if (frame.remaining() < 14) {
            return;
        }
        int at = frame.position();
        long dst = ((frame.getShort(at) & 0xffffL) << 32) | (frame.getInt(at + 2) & 0xffff_ffffL);
        long src = ((frame.getShort(at + 6) & 0xffffL) << 32) | (frame.getInt(at + 8) & 0xffff_ffffL);
        int inPort = pi.inPort();
        int now = CoarseClock.seconds();
        var table = table(sw);
        if (!MacAddress.isMulticast(src)) {
            table.put(src, inPort, now);
        }
        int outPort = MacAddress.isMulticast(dst) ? MacTable.ABSENT : table.get(dst, now);
        if (outPort == MacTable.ABSENT) {
            sw.write(OFPacketOut.of(pi, FLOOD));
            return;
        }
        List<OFAction> actions = outPort == inPort ? DROP : List.of(new OFActionOutput(outPort, 0));
        sw.write(OFFlowMod.builder()
                .match(OFMatch.fromPacket(frame, inPort))
                .idleTimeout(idleTimeout)
                .hardTimeout(hardTimeout)
                .bufferId(pi.bufferId())
                .actions(actions)
                .build());
        if (!pi.isBuffered() && outPort != inPort) {
            sw.write(OFPacketOut.unbuffered(0, inPort, actions, frame));
        }
    }

    private MacTable table(BenchSwitch sw) {
        var local = sw.oldLocal;
        var table = (MacTable) local.get(tableKey);
        if (table == null) {
            table = new MacTable(tableSize, macAge);
            local.put(tableKey, table);
        }
        return table;
    }
}
