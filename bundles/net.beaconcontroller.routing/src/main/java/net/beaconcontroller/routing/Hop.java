package net.beaconcontroller.routing;

/**
 * What one switch on a route does with the route's frames: they arrive on {@code inPort} and leave on
 * {@code outPort}. The two are equal only when a route starts and ends on the same port of one switch; OpenFlow then
 * needs the output port {@code OFPP_IN_PORT} rather than the port number.
 *
 * @param dpid    the switch's datapath id
 * @param inPort  the OpenFlow port the frames arrive on, 1..0xff00
 * @param outPort the OpenFlow port they leave by, 1..0xff00
 */
public record Hop(long dpid, int inPort, int outPort) {
    public Hop {
        if (inPort < 1 || inPort > 0xff00 || outPort < 1 || outPort > 0xff00) {
            throw new IllegalArgumentException("physical port numbers are 1..0xff00, not in " + inPort + " out " + outPort);
        }
    }
}
