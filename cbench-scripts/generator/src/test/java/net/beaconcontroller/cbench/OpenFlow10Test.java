package net.beaconcontroller.cbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFGetConfigReply;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

class OpenFlow10Test {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void headerOnlyMessageIsByteExact() {
        assertEquals("0100000800000007", HEX.formatHex(OpenFlow10.headerOnly(OpenFlow10.HELLO, 7)));
        assertEquals("0113000800000102", HEX.formatHex(OpenFlow10.headerOnly(OpenFlow10.BARRIER_REPLY, 0x102)));
    }

    @Test
    void probePacketInHeaderAndFrameAreByteExact() {
        byte[] probe = OpenFlow10.probePacketIn(5);
        assertEquals(82, probe.length);
        assertEquals(OpenFlow10.PROBE_LENGTH, probe.length);
        // header, buffer_id 0, total_len 64, in_port 1, reason NO_MATCH, pad
        assertEquals("010a005200000000" + "00000000" + "0040" + "0001" + "00" + "00",
                HEX.formatHex(probe, 0, 18));
        // Ethernet: to the learned host 80:00:00:00:00:05, from 00:00:00:00:00:05, IPv4
        assertEquals("800000000005" + "000000000005" + "0800", HEX.formatHex(probe, 18, 32));
        // IPv4 header: 50 bytes, DF, TTL 64, UDP, 192.168.0.40 -> 10.0.0.5
        assertEquals("4500003200004000" + "4011", HEX.formatHex(probe, 32, 42));
        assertEquals("c0a80028" + "0a000005", HEX.formatHex(probe, 44, 52));
        assertEquals(0, OpenFlow10.ipv4Checksum(probe, 32, 20), "IPv4 header checksum must verify");
        // UDP 40000 -> 9, 30 bytes, payload zero
        assertEquals("9c400009001e0000", HEX.formatHex(probe, 52, 60));
        assertArrayEquals(new byte[22], java.util.Arrays.copyOfRange(probe, 60, 82));
        assertEquals(25, OpenFlow10.PROBE_SOURCE_MAC_INDEX_OFFSET, "bytes 1..4 of the Ethernet source");
    }

    @Test
    void openflowjReadsThePatchedProbe() throws Exception {
        ByteBuffer b = ByteBuffer.wrap(OpenFlow10.probePacketIn(0x2a));
        b.putInt(OpenFlow10.XID_OFFSET, 77);
        b.putInt(OpenFlow10.PACKET_IN_BUFFER_ID_OFFSET, 99_999);
        b.putInt(OpenFlow10.PROBE_SOURCE_MAC_INDEX_OFFSET, 0x01020304);
        var pi = assertInstanceOf(OFPacketIn.class, Openflowj.parse(b.array()));
        assertEquals(OFVersion.OF_10, pi.getVersion());
        assertEquals(77, pi.getXid());
        assertEquals(OFBufferId.of(99_999), pi.getBufferId());
        assertEquals(64, pi.getTotalLen());
        assertEquals(OFPort.of(1), pi.getInPort());
        assertEquals(OFPacketInReason.NO_MATCH, pi.getReason());
        assertEquals("00010203042a", HEX.formatHex(pi.getData(), 6, 12));
    }

    @Test
    void learnPacketInIsAnUnbufferedGratuitousArpFromPortTwo() throws Exception {
        byte[] bytes = OpenFlow10.learnPacketIn(0x0102, 3);
        var pi = assertInstanceOf(OFPacketIn.class, Openflowj.parse(bytes));
        assertEquals(OFBufferId.NO_BUFFER, pi.getBufferId());
        assertEquals(OFPort.of(2), pi.getInPort());
        byte[] frame = pi.getData();
        assertEquals(60, frame.length);
        assertEquals("ffffffffffff" + "800000000102" + "0806", HEX.formatHex(frame, 0, 14));
        // ARP reply, sender = target = learned host 80:00:00:00:01:02 / 10.0.1.2
        assertEquals("0001080006040002" + "800000000102" + "0a000102" + "800000000102" + "0a000102",
                HEX.formatHex(frame, 14, 42));
    }

    @Test
    void featuresReplyCarriesDpidAndFourPorts() throws Exception {
        var fr = assertInstanceOf(OFFeaturesReply.class, Openflowj.parse(OpenFlow10.featuresReply(0x1234, 9)));
        assertEquals(9, fr.getXid());
        assertEquals(DatapathId.of(0x1234), fr.getDatapathId());
        assertEquals(256, fr.getNBuffers());
        List<OFPortDesc> ports = fr.getPorts();
        assertEquals(4, ports.size());
        for (int i = 0; i < 4; i++) {
            assertEquals(OFPort.of(i + 1), ports.get(i).getPortNo());
            assertEquals("cb1234-eth" + (i + 1), ports.get(i).getName());
        }
    }

    @Test
    void descStatsAndConfigRepliesParse() throws Exception {
        var desc = assertInstanceOf(OFDescStatsReply.class, Openflowj.parse(OpenFlow10.descStatsReply(11)));
        assertEquals(11, desc.getXid());
        assertEquals("Beacon cbench-compatible load generator", desc.getMfrDesc());
        assertEquals(1068, OpenFlow10.descStatsReply(11).length);
        var config = assertInstanceOf(OFGetConfigReply.class,
                Openflowj.parse(OpenFlow10.getConfigReply(12, 0, 0xffff)));
        assertEquals(12, config.getXid());
        assertEquals(0xffff, config.getMissSendLen());
    }

    @Test
    void responderFlowModIsAnAddToPortTwoWithoutBuffer() throws Exception {
        byte[] bytes = OpenFlow10.responseFlowMod();
        assertEquals(OpenFlow10.RESPONSE_FLOW_MOD_LENGTH, bytes.length);
        var add = assertInstanceOf(OFFlowAdd.class, Openflowj.parse(bytes));
        assertEquals(OFBufferId.NO_BUFFER, add.getBufferId());
        assertEquals(OFPort.of(1), add.getMatch().get(MatchField.IN_PORT));
        var output = assertInstanceOf(OFActionOutput.class, add.getActions().get(0));
        assertEquals(OFPort.of(2), output.getPort());
        assertEquals(OpenFlow10.FLOW_MOD_ADD,
                ByteBuffer.wrap(bytes).getShort(OpenFlow10.FLOW_MOD_COMMAND_OFFSET));
    }
}
