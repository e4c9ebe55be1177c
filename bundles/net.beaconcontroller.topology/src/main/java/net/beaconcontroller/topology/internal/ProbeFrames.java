package net.beaconcontroller.topology.internal;

import net.beaconcontroller.packet.Bytes;
import net.beaconcontroller.packet.Data;
import net.beaconcontroller.packet.Ethernet;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.packet.Lldp;
import net.beaconcontroller.packet.PacketParseException;
import net.beaconcontroller.util.MacAddress;

/**
 * The two frames a probe's LLDPDU travels in. LLDP goes to the nearest-bridge address, which bridges do not forward:
 * it crosses one cable. BDDP (as Floodlight names it) carries the same LLDPDU to the broadcast address with an ether
 * type of its own, so a switch Beacon does not manage floods it like any broadcast: one that arrives where no LLDP
 * link is reveals a broadcast domain (unmanaged bridges in between).
 */
final class ProbeFrames {
    /** BDDP's ether type, as Floodlight's. */
    static final int BDDP_TYPE = 0x8942;

    private ProbeFrames() {
    }

    /** Whether {@code frame} is LLDP or BDDP: discovery consumes both. */
    static boolean isProbe(Frame frame) {
        return frame.isLldp() || isBddp(frame);
    }

    static boolean isBddp(Frame frame) {
        return frame.etherType() == BDDP_TYPE;
    }

    static Ethernet lldp(long sourceMac, Lldp lldpdu) {
        return Ethernet.of(Lldp.NEAREST_BRIDGE, sourceMac, lldpdu).padded();
    }

    static Ethernet bddp(long sourceMac, Lldp lldpdu) {
        return new Ethernet(MacAddress.BROADCAST, sourceMac, null, BDDP_TYPE, new Data(Bytes.of(lldpdu.serialize())),
                Bytes.EMPTY).padded();
    }

    /**
     * The LLDPDU that {@code frame} (LLDP or BDDP) carries, or {@code null} when it carries none.
     *
     * @throws PacketParseException when the frame or its LLDPDU is malformed
     */
    static Lldp lldpdu(Frame frame) throws PacketParseException {
        var payload = frame.decode().payload();
        if (payload instanceof Lldp l) {
            return l;
        }
        if (isBddp(frame) && payload instanceof Data d) {
            return Lldp.parse(d.bytes().toArray());
        }
        return null;
    }
}
