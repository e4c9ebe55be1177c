package net.beaconcontroller.routing.internal;

import java.util.List;
import java.util.function.Predicate;

import net.beaconcontroller.core.FlowVerdict;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.routing.IRoutingEngine;
import net.beaconcontroller.topology.SwitchPort;

/**
 * Routing's verdict on one of its flows found on a switch at reconciliation. After a restart routing knows no hosts
 * and no links yet, and a partly discovered topology gives paths that are not yet the shortest: a flow is declared
 * stale only on evidence that does not depend on what is still to be learnt: its out port is gone or down; its
 * destination host is attached to this very switch at another port that discovery has probed and found no link on; or
 * it sends into such a port while its host is attached elsewhere.
 * (Before that, a host's frame that came in over a cable not yet discovered would place the host at the cable's
 * port.) Anything else that disagrees with what routing knows is kept as unsure; the flow's idle timeout and
 * routing's own link and host-move handling remove it if it really is wrong.
 */
final class RouteAudit {
    /** {@link #outPort} of a flow without actions. */
    private static final int DROP = -1;
    /** {@link #outPort} of a flow with several actions, or one that is not an output. */
    private static final int MANY = -2;

    private RouteAudit() {
    }

    /**
     * @param engine     the current engine, or {@code null}
     * @param provenEdge whether discovery has probed a port and found no link there
     */
    static FlowVerdict judge(IOFSwitch sw, OFFlowStatsEntry flow, IDeviceManager devices, IRoutingEngine engine,
            Predicate<SwitchPort> provenEdge) {
        var match = flow.match();
        int out = outPort(flow.actions());
        if (out == MANY) {
            return FlowVerdict.UNSURE; // not a flow routing writes
        }
        if (out != DROP && OFPort.isPhysical(out)) {
            var port = sw.getPort(out);
            if (port == null || port.isDown()) {
                return FlowVerdict.STALE;
            }
        }
        if (match.isWildcarded(OFMatch.OFPFW_DL_DST) || match.isWildcarded(OFMatch.OFPFW_DL_VLAN)) {
            return FlowVerdict.UNSURE;
        }
        var host = devices.getDevice(match.dlDst(), match.dlVlan()).orElse(null);
        if (host == null) {
            return FlowVerdict.UNSURE;
        }
        var at = host.attachment();
        // Into a port discovery found no link on, while the host is elsewhere: the traffic cannot reach it there.
        if (out != DROP && OFPort.isPhysical(out) && !(at.dpid() == sw.getId() && at.port() == out)
                && provenEdge.test(new SwitchPort(sw.getId(), out))) {
            return FlowVerdict.STALE;
        }
        int expected;
        if (at.dpid() == sw.getId()) {
            expected = at.port();
        } else {
            var path = engine == null ? null : engine.getPath(sw.getId(), at.dpid()).orElse(null);
            if (path == null || path.isEmpty()) {
                return FlowVerdict.UNSURE;
            }
            expected = path.get(0).src().port();
        }
        // A drop flow is what routing writes for a host behind the frame's own in port.
        boolean agrees = out == DROP
                ? !match.isWildcarded(OFMatch.OFPFW_IN_PORT) && match.inPort() == expected
                : out == expected;
        if (agrees) {
            return FlowVerdict.WANTED;
        }
        return at.dpid() == sw.getId() && provenEdge.test(at) ? FlowVerdict.STALE : FlowVerdict.UNSURE;
    }

    private static int outPort(List<OFAction> actions) {
        if (actions.isEmpty()) {
            return DROP;
        }
        if (actions.size() == 1 && actions.get(0) instanceof OFActionOutput output) {
            return output.port();
        }
        return MANY;
    }
}
