package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * FEATURES_REPLY ({@code ofp_switch_features}): who the switch is and which ports it has.
 *
 * @param datapathId   the switch's unique id (the DPID)
 * @param nBuffers     how many packets the switch can buffer at once
 * @param nTables      number of flow tables
 * @param capabilities {@code CAP_*} bits
 * @param actions      bit {@code 1 << t} set for every supported action type {@code t}
 * @param ports        the switch's ports
 */
public record OFFeaturesReply(int xid, long datapathId, long nBuffers, int nTables, long capabilities, long actions,
        List<OFPhysicalPort> ports) implements OFMessage {
    /** Size without ports. */
    public static final int MIN_LENGTH = 32;

    public static final long CAP_FLOW_STATS = 1 << 0;
    public static final long CAP_TABLE_STATS = 1 << 1;
    public static final long CAP_PORT_STATS = 1 << 2;
    public static final long CAP_STP = 1 << 3;
    public static final long CAP_RESERVED = 1 << 4;
    public static final long CAP_IP_REASM = 1 << 5;
    public static final long CAP_QUEUE_STATS = 1 << 6;
    public static final long CAP_ARP_MATCH_IP = 1 << 7;

    public OFFeaturesReply {
        OFWire.u32(nBuffers, "n_buffers");
        OFWire.u8(nTables, "n_tables");
        OFWire.u32(capabilities, "capabilities");
        OFWire.u32(actions, "actions");
        ports = List.copyOf(ports);
        OFWire.checkLength(MIN_LENGTH + ports.size() * OFPhysicalPort.LENGTH, "FEATURES_REPLY");
    }

    @Override
    public OFType type() {
        return OFType.FEATURES_REPLY;
    }

    @Override
    public int length() {
        return MIN_LENGTH + ports.size() * OFPhysicalPort.LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.FEATURES_REPLY, length(), xid);
        buf.putLong(datapathId).putInt((int) nBuffers).put((byte) nTables);
        OFWire.writeZeros(buf, 3);
        buf.putInt((int) capabilities).putInt((int) actions);
        for (OFPhysicalPort p : ports) {
            p.writeTo(buf);
        }
    }

    static OFFeaturesReply read(ByteBuffer buf, int start, int length, int xid) throws OFParseException {
        int portBytes = length - MIN_LENGTH;
        if (portBytes % OFPhysicalPort.LENGTH != 0) {
            throw new OFParseException("port list of " + portBytes + " bytes is not a multiple of "
                    + OFPhysicalPort.LENGTH);
        }
        var ports = new ArrayList<OFPhysicalPort>(portBytes / OFPhysicalPort.LENGTH);
        buf.position(start + MIN_LENGTH);
        for (int i = 0; i < portBytes; i += OFPhysicalPort.LENGTH) {
            ports.add(OFPhysicalPort.readFrom(buf));
        }
        return new OFFeaturesReply(xid, buf.getLong(start + 8), buf.getInt(start + 16) & 0xffff_ffffL,
                buf.get(start + 20) & 0xff, buf.getInt(start + 24) & 0xffff_ffffL,
                buf.getInt(start + 28) & 0xffff_ffffL, ports);
    }

    @Override
    public String toString() {
        return "OFFeaturesReply[xid=" + xid + ", dpid=" + OFWire.hex(datapathId) + ", n_buffers=" + nBuffers
                + ", n_tables=" + nTables + ", capabilities=" + OFWire.hex(capabilities) + ", actions="
                + OFWire.hex(actions) + ", ports=" + ports + "]";
    }
}
