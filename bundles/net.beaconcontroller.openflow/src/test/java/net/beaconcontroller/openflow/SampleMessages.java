package net.beaconcontroller.openflow;

import static net.beaconcontroller.openflow.CodecTestSupport.hex;
import static net.beaconcontroller.openflow.CodecTestSupport.match;

import java.nio.ByteBuffer;
import java.util.List;

import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.queue.OFPacketQueue;
import net.beaconcontroller.openflow.queue.OFQueuePropertyMinRate;
import net.beaconcontroller.openflow.queue.OFQueuePropertyNone;
import net.beaconcontroller.openflow.statistics.OFAggregateStatsReply;
import net.beaconcontroller.openflow.statistics.OFAggregateStatsRequest;
import net.beaconcontroller.openflow.statistics.OFDescStatsReply;
import net.beaconcontroller.openflow.statistics.OFDescStatsRequest;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.openflow.statistics.OFFlowStatsReply;
import net.beaconcontroller.openflow.statistics.OFFlowStatsRequest;
import net.beaconcontroller.openflow.statistics.OFPortStatsEntry;
import net.beaconcontroller.openflow.statistics.OFPortStatsReply;
import net.beaconcontroller.openflow.statistics.OFPortStatsRequest;
import net.beaconcontroller.openflow.statistics.OFQueueStatsEntry;
import net.beaconcontroller.openflow.statistics.OFQueueStatsReply;
import net.beaconcontroller.openflow.statistics.OFQueueStatsRequest;
import net.beaconcontroller.openflow.statistics.OFTableStatsEntry;
import net.beaconcontroller.openflow.statistics.OFTableStatsReply;
import net.beaconcontroller.openflow.statistics.OFTableStatsRequest;
import net.beaconcontroller.openflow.statistics.OFVendorStatsReply;
import net.beaconcontroller.openflow.statistics.OFVendorStatsRequest;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/** One or more valid messages of every type and stats body: the seed corpus of the fuzz and stream tests. */
final class SampleMessages {
    private SampleMessages() {
    }

    static List<OFMessage> all() {
        try {
            OFMatch m1 = match(OFMessageVectorsTest.M1);
            var out2 = List.<net.beaconcontroller.openflow.action.OFAction>of(new OFActionOutput(2, 0));
            var frame = hex(OFMessageVectorsTest.FRAME);
            var p1 = OFMessageVectorsTest.PORT1_VALUE;
            return List.of(
                    new OFHello(1),
                    new OFHello(2, 4, OFData.of(hex("0001 0008 00000012"))),
                    new OFError(3, OFErrorCode.BadRequest.BAD_TYPE, OFData.of(hex("01 0e 0048 00000009"))),
                    OFError.helloFailed(3, "only OpenFlow 1.0"),
                    new OFEchoRequest(4, OFData.of(hex("deadbeef"))),
                    new OFEchoReply(4),
                    new OFVendor(5, 0x005c16c7L, OFData.of(hex("00000001 00000000"))),
                    new NiciraRoleRequest(6, NiciraRole.MASTER),
                    new NiciraRoleReply(6, NiciraRole.SLAVE),
                    new OFFeaturesRequest(7),
                    new OFFeaturesReply(7, 1, 256, 254, 0xc7, 0xfff, List.of(p1, OFMessageVectorsTest.PORT2_VALUE)),
                    new OFGetConfigRequest(8),
                    new OFGetConfigReply(8, 0, 128),
                    new OFSetConfig(9, 0, 0xffff),
                    new OFPacketIn(10, 0x100, 60, 1, OFPacketIn.Reason.NO_MATCH, ByteBuffer.wrap(frame)),
                    new OFFlowRemoved(11, m1, 0xabc, 0x8000, OFFlowRemoved.Reason.IDLE_TIMEOUT, 10, 256, 5, 16, 1600),
                    new OFPortStatus(12, OFPortStatus.Reason.MODIFY, p1),
                    OFPacketOut.unbuffered(13, 1, out2, ByteBuffer.wrap(frame)),
                    OFFlowMod.builder().xid(14).match(m1).idleTimeout(5).bufferId(0x100).actions(out2).build(),
                    new OFPortMod(15, 2, 0x0a00_0000_0002L, 1, 1, 0),
                    new OFStatsRequest(16, OFDescStatsRequest.INSTANCE),
                    new OFStatsReply(16, new OFDescStatsReply("Nicira, Inc.", "Open vSwitch", "3.1.0", "None", "br0")),
                    new OFStatsRequest(17, new OFFlowStatsRequest(m1, 0xff, OFPort.NONE)),
                    new OFStatsReply(17, OFStatsReply.FLAG_MORE, new OFFlowStatsReply(List.of(
                            new OFFlowStatsEntry(0, m1, 10, 100, 0x8000, 5, 0, 0xabc, 16, 1600, out2),
                            new OFFlowStatsEntry(1, m1, 1, 2, 1, 0, 60, 7, 0, 0, List.of())))),
                    new OFStatsRequest(18, new OFAggregateStatsRequest(m1, 0, 2)),
                    new OFStatsReply(18, new OFAggregateStatsReply(100, 6400, 3)),
                    new OFStatsRequest(19, OFTableStatsRequest.INSTANCE),
                    new OFStatsReply(19, new OFTableStatsReply(List.of(
                            new OFTableStatsEntry(0, "classifier", 0x3fffff, 1_000_000, 5, 100, 80)))),
                    new OFStatsRequest(20, new OFPortStatsRequest(OFPort.NONE)),
                    new OFStatsReply(20, new OFPortStatsReply(List.of(
                            new OFPortStatsEntry(1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)))),
                    new OFStatsRequest(21, new OFQueueStatsRequest(OFPort.ALL, OFQueueStatsRequest.ALL_QUEUES)),
                    new OFStatsReply(21, new OFQueueStatsReply(List.of(new OFQueueStatsEntry(1, 1, 1000, 10, 0)))),
                    new OFStatsRequest(22, new OFVendorStatsRequest(0x2320, OFData.of(hex("01020304")))),
                    new OFStatsReply(22, new OFVendorStatsReply(0x2320, OFData.of(hex("aabb")))),
                    new OFBarrierRequest(23),
                    new OFBarrierReply(23),
                    new OFQueueGetConfigRequest(24, 1),
                    new OFQueueGetConfigReply(24, 1, List.of(
                            new OFPacketQueue(1, List.of(new OFQueuePropertyMinRate(500))),
                            new OFPacketQueue(2, List.of(OFQueuePropertyNone.INSTANCE)))));
        } catch (OFParseException e) {
            throw new AssertionError(e);
        }
    }
}
