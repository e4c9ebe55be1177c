package net.beaconcontroller.core.internal;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import net.beaconcontroller.openflow.OFFeaturesReply;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.openflow.OFPortStatus;
import net.beaconcontroller.openflow.statistics.OFDescStatsReply;
import net.beaconcontroller.util.Dpids;

/**
 * What a switch told of itself: its features (DPID, ports) and description from the handshake, its ports kept current
 * from PORT_STATUS. Written only by the connection's I/O thread, read by any.
 */
final class DatapathInfo {
    private final InetSocketAddress remote;
    private volatile OFFeaturesReply features;
    private volatile OFDescStatsReply description;
    private final ConcurrentMap<Integer, OFPhysicalPort> ports = new ConcurrentHashMap<>();

    DatapathInfo(InetSocketAddress remote) {
        this.remote = remote;
    }

    void featured(OFFeaturesReply f) {
        features = f;
        f.ports().forEach(p -> ports.put(p.portNo(), p));
    }

    void described(OFDescStatsReply d) {
        description = d;
    }

    void portChanged(OFPortStatus status) {
        var port = status.desc();
        if (status.reason() == OFPortStatus.Reason.DELETE) {
            ports.remove(port.portNo());
        } else {
            ports.put(port.portNo(), port);
        }
    }

    /** The DPID; 0 before the features reply. */
    long id() {
        var f = features;
        return f == null ? 0 : f.datapathId();
    }

    /** The DPID as Open vSwitch prints it; before the features reply, the remote address. */
    String stringId() {
        var f = features;
        return f == null ? "(unknown, " + remote + ")" : Dpids.toString(f.datapathId());
    }

    OFFeaturesReply features() {
        return features;
    }

    OFDescStatsReply description() {
        return description;
    }

    Collection<OFPhysicalPort> ports() {
        return List.copyOf(ports.values());
    }

    OFPhysicalPort port(int number) {
        return ports.get(number);
    }
}
