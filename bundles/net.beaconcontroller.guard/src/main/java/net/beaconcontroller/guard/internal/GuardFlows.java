package net.beaconcontroller.guard.internal;

import java.util.List;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.packet.Ethernet;

/**
 * The flows that block a port: a drop of everything no other flow takes from that in_port, and above it LLDP from the
 * port to the controller, so that a blocked port keeps its place in topology discovery (the probes of a link found
 * there would be dropped otherwise, and the link would time out). Both end by their hard timeout: nothing has to
 * remember to remove them, across a restart of Beacon or a fail-over to another cluster member included.
 *
 * <p>The drop's priority is far below every other application's flows (routing, the learning switch, the firewall
 * 32768, the ACL 40000), so the port's flows already installed keep forwarding; only its new flows, which would have
 * been PACKET_INs, are dropped. It is above 1, the cluster's migration markers (which drop too, only their own ether
 * type), so the two never overlap at one priority.
 */
record GuardFlows(int dropSeconds, int priority) {
    /** Whole frames: a probe cut short would not parse. */
    private static final int LLDP_MAX_LEN = 0xffff;

    /** The LLDP flow then the drop, in that order, so that no probe falls between them. */
    List<OFFlowMod> block(int port) {
        var lldp = OFFlowMod.builder().match(OFMatch.builder().inPort(port).dlType(Ethernet.TYPE_LLDP).build())
                .cookie(FlowOwner.GUARD.cookie()).hardTimeout(dropSeconds).priority(priority + 1)
                .actions(List.of(new OFActionOutput(OFPort.CONTROLLER, LLDP_MAX_LEN))).build();
        var drop = OFFlowMod.builder().match(OFMatch.builder().inPort(port).build()).cookie(FlowOwner.GUARD.cookie())
                .hardTimeout(dropSeconds).priority(priority).actions(List.of()).build();
        return List.of(lldp, drop);
    }
}
