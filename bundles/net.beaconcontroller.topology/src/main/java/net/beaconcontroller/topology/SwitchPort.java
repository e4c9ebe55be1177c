package net.beaconcontroller.topology;

import net.beaconcontroller.util.Dpids;

/**
 * A port of a switch: where a host attaches or a link ends.
 *
 * @param dpid the switch's datapath id
 * @param port the OpenFlow port number, 1..0xff00
 */
public record SwitchPort(long dpid, int port) {
    public SwitchPort {
        if (port < 1 || port > 0xff00) {
            throw new IllegalArgumentException("a physical port number is 1..0xff00, not " + port);
        }
    }

    @Override
    public String toString() {
        return Dpids.toString(dpid) + "/" + port;
    }
}
