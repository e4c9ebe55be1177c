package net.beaconcontroller.openflow;

import static net.beaconcontroller.openflow.CodecTestSupport.ascii;
import static net.beaconcontroller.openflow.CodecTestSupport.hex;
import static net.beaconcontroller.openflow.CodecTestSupport.match;
import static net.beaconcontroller.openflow.CodecTestSupport.roundTrip;
import static net.beaconcontroller.openflow.CodecTestSupport.zeros;
import static net.beaconcontroller.openflow.OFMessageVectorsTest.M1;
import static net.beaconcontroller.openflow.OFMessageVectorsTest.OUT2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.openflow.action.OFActionOutput;
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
import net.beaconcontroller.openflow.statistics.OFStatsType;
import net.beaconcontroller.openflow.statistics.OFTableStatsEntry;
import net.beaconcontroller.openflow.statistics.OFTableStatsReply;
import net.beaconcontroller.openflow.statistics.OFTableStatsRequest;
import net.beaconcontroller.openflow.statistics.OFVendorStatsReply;
import net.beaconcontroller.openflow.statistics.OFVendorStatsRequest;

/** Byte-exact vectors for STATS_REQUEST and STATS_REPLY with every body type (OpenFlow 1.0.0, section 5.3.5). */
class OFStatsVectorsTest {
    static final String ALL = "003fffff" + zeros(36);

    @Test
    void desc() throws Exception {
        assertEquals(new OFStatsRequest(16, OFDescStatsRequest.INSTANCE),
                roundTrip("01 10 000c 00000010 | 0000 | 0000"));
        var m = (OFStatsReply) roundTrip("01 11 042c 00000010 | 0000 | 0000 | " + ascii("Nicira, Inc.", 256) + " | "
                + ascii("Open vSwitch", 256) + " | " + ascii("3.1.0", 256) + " | " + ascii("None", 32) + " | "
                + ascii("br0", 256));
        assertEquals(new OFStatsReply(16, new OFDescStatsReply("Nicira, Inc.", "Open vSwitch", "3.1.0", "None", "br0")),
                m);
        assertEquals(OFStatsType.DESC, m.body().statsType());
        assertFalse(m.more());
        // Fields may fill their whole width without a terminating NUL.
        String full = "x".repeat(256);
        var wide = (OFStatsReply) roundTrip("01 11 042c 00000011 | 0000 | 0000 | " + ascii(full, 256) + " | "
                + zeros(256) + " | " + zeros(256) + " | " + ascii("y".repeat(32), 32) + " | " + zeros(256));
        assertEquals(new OFDescStatsReply(full, "", "", "y".repeat(32), ""), wide.body());
    }

    @Test
    void flow() throws Exception {
        assertEquals(new OFStatsRequest(17, OFFlowStatsRequest.all()),
                roundTrip("01 10 0038 00000011 | 0001 | 0000 | " + ALL + " | ff | 00 | ffff"));
        assertEquals(new OFStatsRequest(18, new OFFlowStatsRequest(match(M1), 0, 2)),
                roundTrip("01 10 0038 00000012 | 0001 | 0000 | " + M1 + " | 00 | 00 | 0002"));

        String withAction = "0060 | 00 | 00 | " + M1 + " | 0000000a | 00000064 | 8000 | 0005 | 0000 | 000000000000"
                + " | 0000000000000abc | 0000000000000010 | 0000000000000640 | " + OUT2;
        String withoutAction = "0058 | 01 | 00 | " + ALL + " | 00000001 | 00000002 | 0001 | 0000 | 003c | 000000000000"
                + " | ffffffffffffffff | 0000000000000000 | 0000000000000000";
        var m = (OFStatsReply) roundTrip("01 11 00c4 00000011 | 0001 | 0001 | " + withAction + " | " + withoutAction);
        assertTrue(m.more());
        assertEquals(new OFStatsReply(17, OFStatsReply.FLAG_MORE, new OFFlowStatsReply(List.of(
                new OFFlowStatsEntry(0, match(M1), 10, 100, 0x8000, 5, 0, 0xabc, 16, 1600,
                        List.of(new OFActionOutput(2, 0))),
                new OFFlowStatsEntry(1, match(ALL), 1, 2, 1, 0, 60, -1L, 0, 0, List.of())))), m);
        // The last part of a multipart answer may be empty.
        assertEquals(new OFStatsReply(18, new OFFlowStatsReply(List.of())),
                roundTrip("01 11 000c 00000012 | 0001 | 0000"));
    }

    @Test
    void aggregate() throws Exception {
        assertEquals(new OFStatsRequest(19, new OFAggregateStatsRequest(match(M1), 0xff, OFPort.NONE)),
                roundTrip("01 10 0038 00000013 | 0002 | 0000 | " + M1 + " | ff | 00 | ffff"));
        assertEquals(new OFStatsReply(19, new OFAggregateStatsReply(100, 6400, 3)),
                roundTrip("01 11 0024 00000013 | 0002 | 0000 | 0000000000000064 | 0000000000001900 | 00000003"
                        + " | 00000000"));
    }

    @Test
    void table() throws Exception {
        assertEquals(new OFStatsRequest(20, OFTableStatsRequest.INSTANCE),
                roundTrip("01 10 000c 00000014 | 0003 | 0000"));
        assertEquals(new OFStatsReply(20, new OFTableStatsReply(List.of(
                new OFTableStatsEntry(0, "classifier", 0x3fffff, 1_000_000, 5, 100, 80),
                new OFTableStatsEntry(1, "table1", 0x3fffff, 1_000_000, 0, 0, 0)))),
                roundTrip("01 11 008c 00000014 | 0003 | 0000"
                        + " | 00 | 000000 | " + ascii("classifier", 32) + " | 003fffff | 000f4240 | 00000005"
                        + " | 0000000000000064 | 0000000000000050"
                        + " | 01 | 000000 | " + ascii("table1", 32) + " | 003fffff | 000f4240 | 00000000"
                        + " | 0000000000000000 | 0000000000000000"));
    }

    @Test
    void port() throws Exception {
        assertEquals(new OFStatsRequest(21, new OFPortStatsRequest(OFPort.NONE)),
                roundTrip("01 10 0014 00000015 | 0004 | 0000 | ffff | 000000000000"));
        var m = roundTrip("01 11 0074 00000015 | 0004 | 0000 | 0001 | 000000000000"
                + " | 0000000000000001 | 0000000000000002 | 0000000000000003 | 0000000000000004"
                + " | 0000000000000005 | 0000000000000006 | 0000000000000007 | 0000000000000008"
                + " | 0000000000000009 | 000000000000000a | 000000000000000b | ffffffffffffffff");
        assertEquals(new OFStatsReply(21, new OFPortStatsReply(List.of(
                new OFPortStatsEntry(1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, OFPortStatsEntry.UNAVAILABLE)))), m);
    }

    @Test
    void queue() throws Exception {
        assertEquals(new OFStatsRequest(22, new OFQueueStatsRequest(OFPort.ALL, OFQueueStatsRequest.ALL_QUEUES)),
                roundTrip("01 10 0014 00000016 | 0005 | 0000 | fffc | 0000 | ffffffff"));
        assertEquals(new OFStatsReply(22, new OFQueueStatsReply(List.of(new OFQueueStatsEntry(1, 1, 1000, 10, 0)))),
                roundTrip("01 11 002c 00000016 | 0005 | 0000 | 0001 | 0000 | 00000001 | 00000000000003e8"
                        + " | 000000000000000a | 0000000000000000"));
    }

    @Test
    void vendor() throws Exception {
        assertEquals(new OFStatsRequest(23, new OFVendorStatsRequest(0x2320, OFData.of(hex("01020304")))),
                roundTrip("01 10 0014 00000017 | ffff | 0000 | 00002320 | 01020304"));
        assertEquals(new OFStatsReply(23, new OFVendorStatsReply(0x2320, OFData.of(hex("aabb")))),
                roundTrip("01 11 0012 00000017 | ffff | 0000 | 00002320 | aabb"));
    }

    @Test
    void everyStatsTypeMapsBack() {
        for (OFStatsType t : OFStatsType.values()) {
            assertEquals(t, OFStatsType.fromValue(t.value()));
        }
        assertEquals(null, OFStatsType.fromValue(6));
    }
}
