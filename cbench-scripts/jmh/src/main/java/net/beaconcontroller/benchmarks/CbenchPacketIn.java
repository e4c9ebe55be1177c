package net.beaconcontroller.benchmarks;

import java.nio.ByteBuffer;
import java.util.List;

import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFActionOutput;

/** The PACKET_IN cbench sends and the learning switch's answer to it, shared by the hot-path benchmarks. */
final class CbenchPacketIn {
    /** Bytes of the PACKET_IN: an 18-byte header and a 60-byte frame. */
    static final int LENGTH = 18 + 60;
    /** Where the frame starts in the message. */
    static final int FRAME_OFFSET = 18;
    /** The learning switch has seen this destination on port 2. */
    private static final long KNOWN_DST = 0x0000_0000_0002L;
    private static final int KNOWN_DST_PORT = 2;

    private CbenchPacketIn() {
    }

    /**
     * Fills {@code in} with a PACKET_IN as cbench sends it (buffered, from port 1, carrying a 60-byte
     * Ethernet/IPv4/UDP frame from 00:00:00:00:00:01 to 00:00:00:00:00:02) and flips it.
     */
    static ByteBuffer fill(ByteBuffer in) {
        in.put((byte) 1).put((byte) 10).putShort((short) 78).putInt(0x1234) // header: version, PACKET_IN, length, xid
                .putInt(0x100).putShort((short) 60).putShort((short) 1).put((byte) 0).put((byte) 0);
        in.put(new byte[] {0, 0, 0, 0, 0, 2}).put(new byte[] {0, 0, 0, 0, 0, 1}).putShort((short) 0x0800); // Ethernet
        in.put((byte) 0x45).put((byte) 0).putShort((short) 46).putInt(0).put((byte) 64).put((byte) 17) // IPv4
                .putShort((short) 0).putInt(0x0a00_0001).putInt(0x0a00_0002);
        in.putShort((short) 1234).putShort((short) 5678).putShort((short) 26).putShort((short) 0); // UDP
        in.put(new byte[18]); // payload up to 60 bytes
        return in.flip();
    }

    /**
     * Writes the learning switch's FLOW_MOD for {@code pi} into {@code out} (cleared first): {@code match}, idle
     * timeout 5 s, the packet's buffer id, output to the port {@code dst} was learned on or flood.
     *
     * @return the bytes written
     */
    static int writeFlowMod(OFPacketIn pi, long dst, OFMatch match, ByteBuffer out) {
        int outPort = dst == KNOWN_DST ? KNOWN_DST_PORT : OFPort.FLOOD;
        OFFlowMod fm = OFFlowMod.builder()
                .xid(pi.xid())
                .match(match)
                .idleTimeout(5)
                .bufferId(pi.bufferId())
                .actions(List.of(new OFActionOutput(outPort, 0)))
                .build();
        out.clear();
        fm.writeTo(out);
        return out.position();
    }
}
