package net.beaconcontroller.routing.internal;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;

import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.routing.RouteChanges;
import net.beaconcontroller.routing.internal.Routing.Config.Match;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.Link;

/**
 * Deletes the flows routing installed that no longer fit the network. OpenFlow 1.0 cannot delete by cookie, so each
 * delete goes by match (non-strict).
 *
 * <p>Every member of a cluster hears of each event and deletes on the switches it masters only (or all, as their only
 * controller): each switch is cleaned by its own master, and no delete goes through another member, where a switch
 * migrating at that moment could refuse it.
 */
final class FlowCleanup {
    private final IBeaconProvider beacon;
    private final ITopology topology;
    private final IDeviceManager devices;

    FlowCleanup(IBeaconProvider beacon, ITopology topology, IDeviceManager devices) {
        this.beacon = beacon;
        this.topology = topology;
        this.devices = devices;
    }

    /**
     * Flows forwarding into the link on its source switch are black holes whoever installed them; out_port finds them
     * without an engine to ask which routes crossed the link.
     */
    void linkRemoved(Link link) {
        var sw = beacon.getSwitches().get(link.src().dpid());
        if (sw != null && sw.isMaster()) {
            sw.write(delete(OFMatch.ALL, link.src().port()));
            sw.flush();
        }
    }

    /**
     * For each pair (S, T) whose path changed, the flows on S towards the hosts on T: their next frame comes back and
     * takes the new shortest path (a returning link's shorter one too).
     */
    void routesChanged(RouteChanges changes) {
        var switches = beacon.getSwitches();
        var hostsOn = new HashMap<Long, Collection<Device>>();
        var touched = new HashSet<IOFSwitch>();
        changes.forEach((src, dst) -> {
            var sw = switches.get(src);
            if (sw == null || !sw.isMaster()) {
                return;
            }
            for (var host : hostsOn.computeIfAbsent(dst, devices::getDevicesOn)) {
                sw.write(delete(RouteFlows.destinationMatch(host.mac(), host.vlan()), OFPort.NONE));
                touched.add(sw);
            }
        });
        touched.forEach(IOFSwitch::flush);
    }

    /**
     * The host is no longer where its flows were computed for (it moved, or its place turned out to end a link): the
     * flows towards it would carry its traffic to the old place, or drop it there kept alive by the very packets they
     * drop; with {@code EXACT} flows, one from its old port would hide its return there from the controller.
     */
    void hostLeft(Device host, Match granularity) {
        var towards = delete(RouteFlows.destinationMatch(host.mac(), host.vlan()), OFPort.NONE);
        // DST_MAC flows wildcard the source and in port: none is the host's own, and they fit wherever it sends from.
        var from = granularity == Match.EXACT
                ? delete(OFMatch.builder().dlSrc(host.mac()).dlVlan(host.vlan()).build(), OFPort.NONE) : null;
        for (var sw : beacon.getSwitches().values()) {
            if (sw.isMaster()) {
                sw.write(towards);
                if (from != null) {
                    sw.write(from);
                }
                sw.flush();
            }
        }
    }

    /**
     * A host placed at a port that turned out to end a link came from a frame that crossed the link while it was
     * unknown; the device manager forgets it, and its flows go as after a move. Any other removal (aged out, its
     * switch left) leaves flows that still fit, or that their timeouts and {@link #linkRemoved} end.
     */
    void hostRemoved(Device host, Match granularity) {
        var at = host.attachment();
        if (!topology.isEdgePort(at.dpid(), at.port())
                && topology.getLinks().keySet().stream().anyMatch(l -> l.src().equals(at) || l.dst().equals(at))) {
            hostLeft(host, granularity);
        }
    }

    private static OFFlowMod delete(OFMatch match, int outPort) {
        return OFFlowMod.builder().command(OFFlowMod.Command.DELETE).match(match).outPort(outPort).build();
    }
}
