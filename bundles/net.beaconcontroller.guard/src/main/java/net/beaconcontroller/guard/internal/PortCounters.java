package net.beaconcontroller.guard.internal;

import java.util.concurrent.atomic.LongAdder;

import net.beaconcontroller.guard.GuardCounters;

/** One port's counts: added to on its switch's I/O thread, read by /metrics and the console. */
final class PortCounters {
    final LongAdder droppedByPort = new LongAdder();
    final LongAdder droppedBySwitch = new LongAdder();
    final LongAdder dropFlows = new LongAdder();
    final LongAdder episodes = new LongAdder();

    GuardCounters.Port snapshot(long dpid, int port) {
        return new GuardCounters.Port(dpid, port, droppedByPort.sum(), droppedBySwitch.sum(), dropFlows.sum(),
                episodes.sum());
    }
}
