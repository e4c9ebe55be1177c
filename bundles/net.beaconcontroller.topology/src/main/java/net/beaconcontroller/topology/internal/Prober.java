package net.beaconcontroller.topology.internal;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.packet.Ethernet;
import net.beaconcontroller.topology.SwitchPort;

/**
 * Writes discovery's probes: an LLDP frame out of every port it is asked to probe, and its BDDP twin where no LLDP
 * link ends (see {@link ProbeFrames}). Called on the switch's own I/O thread; {@link ProbeScheduler} decides when, and
 * {@link ProbeReceiver} asks for the other direction of a new link.
 */
final class Prober {
    private final TopologyStore store;
    private final ProbeCodec codec;
    private final SharedLinks shared;
    private final Liveness liveness;
    private final LongAdder sent = new LongAdder();

    Prober(TopologyStore store, ProbeCodec codec, SharedLinks shared, Liveness liveness) {
        this.store = store;
        this.codec = codec;
        this.shared = shared;
        this.liveness = liveness;
    }

    /** Probes written to switch ports so far, LLDP and BDDP. */
    long sent() {
        return sent.sum();
    }

    void probeAll(IOFSwitch sw) {
        for (var p : sw.getPorts()) {
            if (isProbed(p)) {
                probe(sw, p);
            }
        }
    }

    /** Port {@code port} of the switch, if it is still there and up. */
    void probePort(IOFSwitch sw, int port) {
        var p = sw.getPort(port);
        if (p != null && isProbed(p)) {
            probe(sw, p);
        }
    }

    /** Probes go out through the switch's master only: a slave's write would be forwarded to the master anyway. */
    void probe(IOFSwitch sw, OFPhysicalPort port) {
        if (!sw.isMaster()) {
            return;
        }
        long at = shared.probeTime();
        var lldpdu = codec.probe(sw.getId(), port.portNo(), at);
        send(sw, port, ProbeFrames.lldp(port.hwAddr(), lldpdu));
        liveness.sent(new SwitchPort(sw.getId(), port.portNo()), at);
        // Only where no LLDP link ends: a port that ends one faces a switch of ours, not a bridge, and its liveness
        // probes would double the discovery traffic of every cable.
        if (store.view().isEdgePort(sw.getId(), port.portNo())) {
            send(sw, port, ProbeFrames.bddp(port.hwAddr(), lldpdu));
        }
    }

    private void send(IOFSwitch sw, OFPhysicalPort port, Ethernet frame) {
        sw.write(OFPacketOut.unbuffered(0, OFPort.NONE, List.of(new OFActionOutput(port.portNo(), 0)),
                ByteBuffer.wrap(frame.serialize())));
        sent.increment();
    }

    static boolean isProbed(OFPhysicalPort p) {
        return isPhysical(p.portNo()) && !p.isDown();
    }

    static boolean isPhysical(int port) {
        return port >= 1 && port <= OFPort.MAX;
    }
}
