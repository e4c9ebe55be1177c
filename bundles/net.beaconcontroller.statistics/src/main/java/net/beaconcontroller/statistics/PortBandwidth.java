package net.beaconcontroller.statistics;

import java.time.Instant;

/**
 * How fast a switch port moved bytes between the last two port statistics replies.
 *
 * @param dpid            the switch
 * @param port            the port
 * @param updated         when the later reply arrived
 * @param rxBitsPerSecond received
 * @param txBitsPerSecond transmitted
 * @param rxBytes         the receive counter in the later reply
 * @param txBytes         the transmit counter in the later reply
 */
public record PortBandwidth(long dpid, int port, Instant updated, long rxBitsPerSecond, long txBitsPerSecond,
        long rxBytes, long txBytes) {
}
