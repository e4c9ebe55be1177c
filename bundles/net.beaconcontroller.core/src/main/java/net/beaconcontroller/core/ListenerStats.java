package net.beaconcontroller.core;

import net.beaconcontroller.openflow.OFType;

/**
 * What one message listener has done so far in one message type's pipeline. Calls and failures are exact; the time
 * is measured on one dispatch in 64 (timing every call would cost the hot path more than the listener itself), so
 * {@code timedNanos / timedCalls} estimates the time per call.
 *
 * @param type       the message type
 * @param listener   the listener's name
 * @param calls      messages it received
 * @param errors     calls that threw
 * @param timedCalls calls whose time was measured
 * @param timedNanos the time those took together
 */
public record ListenerStats(OFType type, String listener, long calls, long errors, long timedCalls,
        long timedNanos) {
}
