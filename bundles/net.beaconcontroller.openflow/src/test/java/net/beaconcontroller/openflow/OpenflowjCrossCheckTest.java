package net.beaconcontroller.openflow;

import static net.beaconcontroller.openflow.CodecTestSupport.hex;
import static net.beaconcontroller.openflow.CodecTestSupport.match;
import static net.beaconcontroller.openflow.OFMessageVectorsTest.FRAME;
import static net.beaconcontroller.openflow.OFMessageVectorsTest.M1;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFActionType;
import org.projectfloodlight.openflow.protocol.OFBadActionCode;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowModFailedCode;
import org.projectfloodlight.openflow.protocol.OFFlowRemovedReason;
import org.projectfloodlight.openflow.protocol.OFHelloFailedCode;
import org.projectfloodlight.openflow.protocol.OFNiciraControllerRole;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortModFailedCode;
import org.projectfloodlight.openflow.protocol.OFPortReason;
import org.projectfloodlight.openflow.protocol.OFQueueOpFailedCode;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.protocol.ver10.OFCapabilitiesSerializerVer10;
import org.projectfloodlight.openflow.protocol.ver10.OFConfigFlagsSerializerVer10;
import org.projectfloodlight.openflow.protocol.ver10.OFFlowModFlagsSerializerVer10;
import org.projectfloodlight.openflow.protocol.ver10.OFPortConfigSerializerVer10;
import org.projectfloodlight.openflow.protocol.ver10.OFPortFeaturesSerializerVer10;
import org.projectfloodlight.openflow.protocol.ver10.OFPortStateSerializerVer10;
import org.projectfloodlight.openflow.protocol.ver10.OFStatsReplyFlagsSerializerVer10;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IpProtocol;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFErrorCauseData;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.queue.OFPacketQueue;
import net.beaconcontroller.openflow.queue.OFQueuePropertyMinRate;
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
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * A second opinion from an independent implementation (openflowj, used only here): for every OpenFlow 1.0 message
 * openflowj supports, the same message is built in both libraries; what openflowj writes must parse here to the
 * same values, what is written here must parse in openflowj to the same values, and the bytes must agree.
 * Generic VENDOR messages and VENDOR stats are not compared: openflowj only reads vendor messages it knows.
 */
class OpenflowjCrossCheckTest {
    private static final OFFactory F = OFFactories.getFactory(OFVersion.OF_10);

    /** The openflowj twin of {@link OFMessageVectorsTest#M1}. */
    private static final Match THEIR_M1 = F.buildMatch()
            .setExact(MatchField.IN_PORT, port(1))
            .setExact(MatchField.ETH_TYPE, EthType.IPv4)
            .setExact(MatchField.IP_PROTO, IpProtocol.UDP)
            .setExact(MatchField.IPV4_SRC, IPv4Address.of("10.0.0.1"))
            .setExact(MatchField.IPV4_DST, IPv4Address.of("10.0.0.2"))
            .build();

    private static org.projectfloodlight.openflow.types.OFPort port(int p) {
        return org.projectfloodlight.openflow.types.OFPort.ofShort((short) p);
    }

    private static void check(OFMessage ours, org.projectfloodlight.openflow.protocol.OFMessage theirs)
            throws Exception {
        ByteBuf b = Unpooled.buffer();
        theirs.writeTo(b);
        var theirBytes = new byte[b.readableBytes()];
        b.readBytes(theirBytes);
        byte[] ourBytes = ours.toByteArray();

        assertEquals(ours, OFMessageReader.read(ByteBuffer.wrap(theirBytes)), "openflowj's bytes parsed here");
        assertEquals(theirs, F.getReader().readFrom(Unpooled.wrappedBuffer(ourBytes)), "our bytes parsed by openflowj");
        assertArrayEquals(theirBytes, ourBytes, "the encodings");
    }

    private static OFPortDesc theirPort(int no, long mac, String name, int config, int state, int curr, int adv,
            int supported, int peer) {
        return F.buildPortDesc().setPortNo(port(no)).setHwAddr(MacAddress.of(mac)).setName(name)
                .setConfig(OFPortConfigSerializerVer10.ofWireValue(config))
                .setState(OFPortStateSerializerVer10.ofWireValue(state))
                .setCurr(OFPortFeaturesSerializerVer10.ofWireValue(curr))
                .setAdvertised(OFPortFeaturesSerializerVer10.ofWireValue(adv))
                .setSupported(OFPortFeaturesSerializerVer10.ofWireValue(supported))
                .setPeer(OFPortFeaturesSerializerVer10.ofWireValue(peer)).build();
    }

    @Test
    void helloEchoBarrierFeaturesRequestGetConfigRequest() throws Exception {
        check(new OFHello(1), F.buildHello().setXid(1).build());
        check(new OFEchoRequest(2, OFData.of(hex("deadbeef"))),
                F.buildEchoRequest().setXid(2).setData(hex("deadbeef")).build());
        check(new OFEchoReply(3, OFData.of(hex("0102"))), F.buildEchoReply().setXid(3).setData(hex("0102")).build());
        check(new OFBarrierRequest(4), F.buildBarrierRequest().setXid(4).build());
        check(new OFBarrierReply(5), F.buildBarrierReply().setXid(5).build());
        check(new OFFeaturesRequest(6), F.buildFeaturesRequest().setXid(6).build());
        check(new OFGetConfigRequest(7), F.buildGetConfigRequest().setXid(7).build());
    }

    @Test
    void errors() throws Exception {
        byte[] cause = hex("01 0e 0048 00000009 00000000");
        var data = OFErrorCauseData.of(cause, OFVersion.OF_10);
        var e = F.errorMsgs();
        check(new OFError(1, OFErrorCode.HelloFailed.INCOMPATIBLE, OFData.ofAscii("no common version")),
                e.buildHelloFailedErrorMsg().setXid(1).setCode(OFHelloFailedCode.INCOMPATIBLE)
                        .setData(OFErrorCauseData.of("no common version".getBytes(), OFVersion.OF_10)).build());
        check(new OFError(2, OFErrorCode.BadRequest.BUFFER_UNKNOWN, OFData.of(cause)),
                e.buildBadRequestErrorMsg().setXid(2).setCode(OFBadRequestCode.BUFFER_UNKNOWN).setData(data).build());
        check(new OFError(3, OFErrorCode.BadAction.BAD_OUT_PORT, OFData.of(cause)),
                e.buildBadActionErrorMsg().setXid(3).setCode(OFBadActionCode.BAD_OUT_PORT).setData(data).build());
        check(new OFError(4, OFErrorCode.FlowModFailed.ALL_TABLES_FULL, OFData.of(cause)),
                e.buildFlowModFailedErrorMsg().setXid(4).setCode(OFFlowModFailedCode.ALL_TABLES_FULL).setData(data)
                        .build());
        check(new OFError(5, OFErrorCode.PortModFailed.BAD_HW_ADDR, OFData.of(cause)),
                e.buildPortModFailedErrorMsg().setXid(5).setCode(OFPortModFailedCode.BAD_HW_ADDR).setData(data)
                        .build());
        check(new OFError(6, OFErrorCode.QueueOpFailed.BAD_QUEUE, OFData.of(cause)),
                e.buildQueueOpFailedErrorMsg().setXid(6).setCode(OFQueueOpFailedCode.BAD_QUEUE).setData(data).build());
    }

    @Test
    void niciraRole() throws Exception {
        check(new NiciraRoleRequest(1, NiciraRole.MASTER),
                F.buildNiciraControllerRoleRequest().setXid(1).setRole(OFNiciraControllerRole.ROLE_MASTER).build());
        check(new NiciraRoleRequest(2, NiciraRole.OTHER),
                F.buildNiciraControllerRoleRequest().setXid(2).setRole(OFNiciraControllerRole.ROLE_OTHER).build());
        check(new NiciraRoleReply(3, NiciraRole.SLAVE),
                F.buildNiciraControllerRoleReply().setXid(3).setRole(OFNiciraControllerRole.ROLE_SLAVE).build());
    }

    @Test
    void featuresReplyAndPortStatus() throws Exception {
        var p1 = new OFPhysicalPort(1, 0x0a00_0000_0001L, "eth1", 0, OFPhysicalPort.STATE_STP_FORWARD, 0x2a0, 0x2a0,
                0x2bf, 0x20);
        var p2 = new OFPhysicalPort(OFPort.LOCAL, 0x0a00_0000_0002L, "br0", OFPhysicalPort.CONFIG_PORT_DOWN
                | OFPhysicalPort.CONFIG_NO_FLOOD, OFPhysicalPort.STATE_LINK_DOWN, 0, 0, 0, 0);
        var t1 = theirPort(1, 0x0a00_0000_0001L, "eth1", 0, 0x200, 0x2a0, 0x2a0, 0x2bf, 0x20);
        var t2 = theirPort(0xfffe, 0x0a00_0000_0002L, "br0", 0x11, 1, 0, 0, 0, 0);
        check(new OFFeaturesReply(7, 0x0000_0a00_0000_0001L, 256, 254, 0xc7, 0xfff, List.of(p1, p2)),
                F.buildFeaturesReply().setXid(7).setDatapathId(DatapathId.of(0x0000_0a00_0000_0001L)).setNBuffers(256)
                        .setNTables((short) 254).setCapabilities(OFCapabilitiesSerializerVer10.ofWireValue(0xc7))
                        .setActions(EnumSet.range(OFActionType.OUTPUT, OFActionType.ENQUEUE))
                        .setPorts(List.of(t1, t2)).build());
        check(new OFPortStatus(8, OFPortStatus.Reason.DELETE, p1),
                F.buildPortStatus().setXid(8).setReason(OFPortReason.DELETE).setDesc(t1).build());
        check(new OFPortMod(9, 2, 0x0a00_0000_0002L, OFPhysicalPort.CONFIG_PORT_DOWN, OFPhysicalPort.CONFIG_PORT_DOWN
                | OFPhysicalPort.CONFIG_NO_FLOOD, OFPhysicalPort.FEATURE_1GB_FD),
                F.buildPortMod().setXid(9).setPortNo(port(2)).setHwAddr(MacAddress.of(0x0a00_0000_0002L))
                        .setConfig(OFPortConfigSerializerVer10.ofWireValue(1))
                        .setMask(OFPortConfigSerializerVer10.ofWireValue(0x11)).setAdvertise(0x20).build());
    }

    @Test
    void config() throws Exception {
        check(new OFGetConfigReply(1, OFSetConfig.FRAG_DROP, 128), F.buildGetConfigReply().setXid(1)
                .setFlags(OFConfigFlagsSerializerVer10.ofWireValue((short) 1)).setMissSendLen(128).build());
        check(new OFSetConfig(2, OFSetConfig.FRAG_NORMAL, 0xffff), F.buildSetConfig().setXid(2)
                .setFlags(OFConfigFlagsSerializerVer10.ofWireValue((short) 0)).setMissSendLen(0xffff).build());
    }

    @Test
    void packetInAndOut() throws Exception {
        byte[] frame = hex(FRAME);
        check(new OFPacketIn(1, 0x100, 60, 1, OFPacketIn.Reason.NO_MATCH, ByteBuffer.wrap(frame)),
                F.buildPacketIn().setXid(1).setBufferId(OFBufferId.of(0x100)).setTotalLen(60).setInPort(port(1))
                        .setReason(OFPacketInReason.NO_MATCH).setData(frame).build());
        check(new OFPacketIn(2, OFMessage.NO_BUFFER, 16, 3, OFPacketIn.Reason.ACTION, ByteBuffer.wrap(frame)),
                F.buildPacketIn().setXid(2).setBufferId(OFBufferId.NO_BUFFER).setTotalLen(16).setInPort(port(3))
                        .setReason(OFPacketInReason.ACTION).setData(frame).build());
        check(OFPacketOut.unbuffered(3, 1, List.of(new OFActionOutput(OFPort.FLOOD, 0)), ByteBuffer.wrap(frame)),
                F.buildPacketOut().setXid(3).setBufferId(OFBufferId.NO_BUFFER).setInPort(port(1))
                        .setActions(List.of(F.actions().output(port(0xfffb), 0))).setData(frame).build());
        check(OFPacketOut.buffered(4, 0x100, 1, List.of(new OFActionOutput(2, 0), new OFActionOutput(OFPort.CONTROLLER,
                0xffff))), F.buildPacketOut().setXid(4).setBufferId(OFBufferId.of(0x100)).setInPort(port(1))
                        .setActions(List.of(F.actions().output(port(2), 0), F.actions().output(port(0xfffd), 0xffff)))
                        .build());
    }

    @Test
    void flowModEveryCommandAndFlowRemoved() throws Exception {
        var ours = OFFlowMod.builder().xid(1).match(match(M1)).cookie(0xabc).idleTimeout(5).hardTimeout(60)
                .priority(100).bufferId(0x100).outPort(OFPort.NONE).flags(OFFlowMod.FLAG_SEND_FLOW_REM)
                .actions(List.of(new OFActionOutput(2, 0)));
        var flags = OFFlowModFlagsSerializerVer10.ofWireValue((short) 1);
        List<org.projectfloodlight.openflow.protocol.action.OFAction> actions = List.of(F.actions().output(port(2), 0));
        check(ours.command(OFFlowMod.Command.ADD).build(), F.buildFlowAdd().setXid(1).setMatch(THEIR_M1)
                .setCookie(U64.of(0xabc)).setIdleTimeout(5).setHardTimeout(60).setPriority(100)
                .setBufferId(OFBufferId.of(0x100)).setOutPort(port(0xffff)).setFlags(flags).setActions(actions)
                .build());
        check(ours.command(OFFlowMod.Command.MODIFY).build(), F.buildFlowModify().setXid(1).setMatch(THEIR_M1)
                .setCookie(U64.of(0xabc)).setIdleTimeout(5).setHardTimeout(60).setPriority(100)
                .setBufferId(OFBufferId.of(0x100)).setOutPort(port(0xffff)).setFlags(flags).setActions(actions)
                .build());
        check(ours.command(OFFlowMod.Command.MODIFY_STRICT).build(), F.buildFlowModifyStrict().setXid(1)
                .setMatch(THEIR_M1).setCookie(U64.of(0xabc)).setIdleTimeout(5).setHardTimeout(60).setPriority(100)
                .setBufferId(OFBufferId.of(0x100)).setOutPort(port(0xffff)).setFlags(flags).setActions(actions)
                .build());
        var delete = OFFlowMod.builder().xid(2).match(match(M1)).outPort(3);
        check(delete.command(OFFlowMod.Command.DELETE).build(), F.buildFlowDelete().setXid(2).setMatch(THEIR_M1)
                .setPriority(0x8000).setBufferId(OFBufferId.NO_BUFFER).setOutPort(port(3)).build());
        check(delete.command(OFFlowMod.Command.DELETE_STRICT).build(), F.buildFlowDeleteStrict().setXid(2)
                .setMatch(THEIR_M1).setPriority(0x8000).setBufferId(OFBufferId.NO_BUFFER).setOutPort(port(3)).build());

        check(new OFFlowRemoved(3, match(M1), 0xabc, 0x8000, OFFlowRemoved.Reason.HARD_TIMEOUT, 10, 256, 5, 16, 1600),
                F.buildFlowRemoved().setXid(3).setMatch(THEIR_M1).setCookie(U64.of(0xabc)).setPriority(0x8000)
                        .setReason(OFFlowRemovedReason.HARD_TIMEOUT).setDurationSec(10).setDurationNsec(256)
                        .setIdleTimeout(5).setPacketCount(U64.of(16)).setByteCount(U64.of(1600)).build());
    }

    @Test
    void stats() throws Exception {
        var more = OFStatsReplyFlagsSerializerVer10.ofWireValue((short) 1);
        check(new OFStatsRequest(1, OFDescStatsRequest.INSTANCE), F.buildDescStatsRequest().setXid(1).build());
        check(new OFStatsReply(1, new OFDescStatsReply("Nicira, Inc.", "Open vSwitch", "3.1.0", "None", "br0")),
                F.buildDescStatsReply().setXid(1).setMfrDesc("Nicira, Inc.").setHwDesc("Open vSwitch")
                        .setSwDesc("3.1.0").setSerialNum("None").setDpDesc("br0").build());

        check(new OFStatsRequest(2, new OFFlowStatsRequest(match(M1), 0xff, OFPort.NONE)),
                F.buildFlowStatsRequest().setXid(2).setMatch(THEIR_M1).setTableId(TableId.ALL).setOutPort(port(0xffff))
                        .build());
        check(new OFStatsReply(2, OFStatsReply.FLAG_MORE, new OFFlowStatsReply(List.of(
                new OFFlowStatsEntry(0, match(M1), 10, 100, 0x8000, 5, 0, 0xabc, 16, 1600,
                        List.of(new OFActionOutput(2, 0))),
                new OFFlowStatsEntry(1, match(M1), 1, 2, 1, 0, 60, 7, 0, 0, List.of())))),
                F.buildFlowStatsReply().setXid(2).setFlags(more).setEntries(List.of(
                        F.buildFlowStatsEntry().setTableId(TableId.of(0)).setMatch(THEIR_M1).setDurationSec(10)
                                .setDurationNsec(100).setPriority(0x8000).setIdleTimeout(5).setHardTimeout(0)
                                .setCookie(U64.of(0xabc)).setPacketCount(U64.of(16)).setByteCount(U64.of(1600))
                                .setActions(List.of(F.actions().output(port(2), 0))).build(),
                        F.buildFlowStatsEntry().setTableId(TableId.of(1)).setMatch(THEIR_M1).setDurationSec(1)
                                .setDurationNsec(2).setPriority(1).setIdleTimeout(0).setHardTimeout(60)
                                .setCookie(U64.of(7)).setPacketCount(U64.of(0)).setByteCount(U64.of(0))
                                .setActions(List.of()).build())).build());

        check(new OFStatsRequest(3, new OFAggregateStatsRequest(match(M1), 0, 2)),
                F.buildAggregateStatsRequest().setXid(3).setMatch(THEIR_M1).setTableId(TableId.of(0))
                        .setOutPort(port(2)).build());
        check(new OFStatsReply(3, new OFAggregateStatsReply(100, 6400, 3)), F.buildAggregateStatsReply().setXid(3)
                .setPacketCount(U64.of(100)).setByteCount(U64.of(6400)).setFlowCount(3).build());

        check(new OFStatsRequest(4, OFTableStatsRequest.INSTANCE), F.buildTableStatsRequest().setXid(4).build());
        check(new OFStatsReply(4, new OFTableStatsReply(List.of(
                new OFTableStatsEntry(0, "classifier", 0x3fffff, 1_000_000, 5, 100, 80)))),
                F.buildTableStatsReply().setXid(4).setEntries(List.of(F.buildTableStatsEntry()
                        .setTableId(TableId.of(0)).setName("classifier").setWildcards(0x3fffff)
                        .setMaxEntries(1_000_000).setActiveCount(5).setLookupCount(U64.of(100))
                        .setMatchedCount(U64.of(80)).build())).build());

        check(new OFStatsRequest(5, new OFPortStatsRequest(OFPort.NONE)),
                F.buildPortStatsRequest().setXid(5).setPortNo(port(0xffff)).build());
        check(new OFStatsReply(5, new OFPortStatsReply(List.of(
                new OFPortStatsEntry(1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)))),
                F.buildPortStatsReply().setXid(5).setEntries(List.of(F.buildPortStatsEntry().setPortNo(port(1))
                        .setRxPackets(U64.of(1)).setTxPackets(U64.of(2)).setRxBytes(U64.of(3)).setTxBytes(U64.of(4))
                        .setRxDropped(U64.of(5)).setTxDropped(U64.of(6)).setRxErrors(U64.of(7))
                        .setTxErrors(U64.of(8)).setRxFrameErr(U64.of(9)).setRxOverErr(U64.of(10))
                        .setRxCrcErr(U64.of(11)).setCollisions(U64.of(12)).build())).build());

        check(new OFStatsRequest(6, new OFQueueStatsRequest(OFPort.ALL, OFQueueStatsRequest.ALL_QUEUES)),
                F.buildQueueStatsRequest().setXid(6).setPortNo(port(0xfffc)).setQueueId(0xffff_ffffL).build());
        check(new OFStatsReply(6, new OFQueueStatsReply(List.of(new OFQueueStatsEntry(1, 1, 1000, 10, 0)))),
                F.buildQueueStatsReply().setXid(6).setEntries(List.of(F.buildQueueStatsEntry().setPortNo(port(1))
                        .setQueueId(1).setTxBytes(U64.of(1000)).setTxPackets(U64.of(10)).setTxErrors(U64.of(0))
                        .build())).build());
    }

    @Test
    void queueGetConfig() throws Exception {
        check(new OFQueueGetConfigRequest(1, 2), F.buildQueueGetConfigRequest().setXid(1).setPort(port(2)).build());
        check(new OFQueueGetConfigReply(2, 2, List.of(new OFPacketQueue(1, List.of(new OFQueuePropertyMinRate(500))),
                new OFPacketQueue(2, List.of()))),
                F.buildQueueGetConfigReply().setXid(2).setPort(port(2)).setQueues(List.of(
                        F.buildPacketQueue().setQueueId(1).setProperties(List.of(F.queueProps().minRate(500))).build(),
                        F.buildPacketQueue().setQueueId(2).setProperties(List.of()).build())).build());
    }
}
