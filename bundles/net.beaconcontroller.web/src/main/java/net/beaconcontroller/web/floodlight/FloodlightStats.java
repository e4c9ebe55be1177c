package net.beaconcontroller.web.floodlight;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import net.beaconcontroller.openflow.OFFeaturesReply;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.openflow.statistics.OFAggregateStatsReply;
import net.beaconcontroller.openflow.statistics.OFDescStatsReply;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.openflow.statistics.OFPortStatsEntry;
import net.beaconcontroller.openflow.statistics.OFQueueStatsEntry;
import net.beaconcontroller.openflow.statistics.OFTableStatsEntry;
import net.beaconcontroller.util.Dpids;
import net.beaconcontroller.util.MacAddress;

/**
 * An OpenFlow 1.0 switch's statistics and features in the JSON shapes of Floodlight v1.2's
 * {@code /wm/core/switch/<dpid>/<stat>/json}: ordered maps whose numbers are strings, as Floodlight writes them.
 */
public final class FloodlightStats {
    private static final String VERSION = "OF_10";
    private static final String[] CAPABILITIES = {"FLOW_STATS", "TABLE_STATS", "PORT_STATS", "STP", "RESERVED",
        "IP_REASM", "QUEUE_STATS", "ARP_MATCH_IP"};
    private static final String[] ACTIONS = {"OUTPUT", "SET_VLAN_VID", "SET_VLAN_PCP", "STRIP_VLAN", "SET_DL_SRC",
        "SET_DL_DST", "SET_NW_SRC", "SET_NW_DST", "SET_NW_TOS", "SET_TP_SRC", "SET_TP_DST", "ENQUEUE"};

    private FloodlightStats() {
    }

    public static Map<String, Object> port(List<OFPortStatsEntry> entries) {
        var ports = new ArrayList<Map<String, Object>>();
        for (var e : sortedByPort(entries, OFPortStatsEntry::portNo)) {
            var m = new LinkedHashMap<String, Object>();
            m.put("portNumber", FloodlightMatch.port(e.portNo()));
            m.put("receivePackets", u(e.rxPackets()));
            m.put("transmitPackets", u(e.txPackets()));
            m.put("receiveBytes", u(e.rxBytes()));
            m.put("transmitBytes", u(e.txBytes()));
            m.put("receiveDropped", u(e.rxDropped()));
            m.put("transmitDropped", u(e.txDropped()));
            m.put("receiveErrors", u(e.rxErrors()));
            m.put("transmitErrors", u(e.txErrors()));
            m.put("receiveFrameErrors", u(e.rxFrameErrors()));
            m.put("receiveOverrunErrors", u(e.rxOverErrors()));
            m.put("receiveCRCErrors", u(e.rxCrcErrors()));
            m.put("collisions", u(e.collisions()));
            ports.add(m);
        }
        var reply = new LinkedHashMap<String, Object>();
        reply.put("version", VERSION);
        reply.put("port", ports);
        return Map.of("port_reply", List.of(reply));
    }

    public static Map<String, Object> flows(List<OFFlowStatsEntry> entries) {
        var flows = new ArrayList<Map<String, Object>>();
        for (var e : entries) {
            var m = new LinkedHashMap<String, Object>();
            m.put("version", VERSION);
            m.put("cookie", u(e.cookie()));
            m.put("tableId", "0x" + Integer.toHexString(e.tableId()));
            m.put("packetCount", u(e.packetCount()));
            m.put("byteCount", u(e.byteCount()));
            m.put("durationSeconds", u(e.durationSec()));
            m.put("durationNSeconds", u(e.durationNsec()));
            m.put("priority", Integer.toString(e.priority()));
            m.put("idleTimeoutSec", Integer.toString(e.idleTimeout()));
            m.put("hardTimeoutSec", Integer.toString(e.hardTimeout()));
            m.put("match", FloodlightMatch.toMap(e.match()));
            m.put("actions", e.actions().isEmpty() ? Map.of("none", "drop")
                    : Map.of("actions", FloodlightActions.format(e.actions())));
            flows.add(m);
        }
        return Map.of("flows", flows);
    }

    public static Map<String, Object> aggregate(OFAggregateStatsReply r) {
        var m = new LinkedHashMap<String, Object>();
        m.put("version", VERSION);
        m.put("flowCount", u(r.flowCount()));
        m.put("packetCount", u(r.packetCount()));
        m.put("byteCount", u(r.byteCount()));
        m.put("flags", "0");
        return Map.of("aggregate", m);
    }

    public static Map<String, Object> desc(OFDescStatsReply r) {
        var m = new LinkedHashMap<String, Object>();
        m.put("version", VERSION);
        m.put("manufacturerDescription", r.manufacturer());
        m.put("hardwareDescription", r.hardware());
        m.put("softwareDescription", r.software());
        m.put("serialNumber", r.serialNumber());
        m.put("datapathDescription", r.datapath());
        return Map.of("desc", m);
    }

    public static Map<String, Object> table(List<OFTableStatsEntry> entries) {
        var tables = new ArrayList<Map<String, Object>>();
        for (var e : entries) {
            var m = new LinkedHashMap<String, Object>();
            m.put("tableId", "0x" + Integer.toHexString(e.tableId()));
            m.put("activeCount", u(e.activeCount()));
            m.put("lookUpCount", u(e.lookupCount()));
            m.put("matchCount", u(e.matchedCount()));
            m.put("name", e.name());
            m.put("wildcards", u(e.wildcards()));
            m.put("maxEntries", u(e.maxEntries()));
            tables.add(m);
        }
        var m = new LinkedHashMap<String, Object>();
        m.put("version", VERSION);
        m.put("table", tables);
        return m;
    }

    /** The features, with the ports as they are now (kept current from PORT_STATUS), not as the handshake saw them. */
    public static Map<String, Object> features(OFFeaturesReply f, Collection<OFPhysicalPort> ports) {
        var m = new LinkedHashMap<String, Object>();
        m.put("capabilities", names(f.capabilities(), CAPABILITIES));
        m.put("dpid", Dpids.toString(f.datapathId()));
        m.put("buffers", u(f.nBuffers()));
        m.put("tables", Integer.toString(f.nTables()));
        m.put("version", VERSION);
        m.put("portDesc", portDesc(ports));
        m.put("actions", names(f.actions(), ACTIONS));
        return m;
    }

    /** Ports as Floodlight's port-desc lists them: config, state and features as the wire's bitmaps. */
    public static List<Map<String, Object>> portDesc(Collection<OFPhysicalPort> ports) {
        var out = new ArrayList<Map<String, Object>>();
        for (var p : sortedByPort(ports, OFPhysicalPort::portNo)) {
            var m = new LinkedHashMap<String, Object>();
            m.put("portNumber", FloodlightMatch.port(p.portNo()));
            m.put("hardwareAddress", MacAddress.toString(p.hwAddr()));
            m.put("name", p.name());
            m.put("config", u(p.config()));
            m.put("state", u(p.state()));
            m.put("currentFeatures", u(p.curr()));
            m.put("advertisedFeatures", u(p.advertised()));
            m.put("supportedFeatures", u(p.supported()));
            m.put("peerFeatures", u(p.peer()));
            out.add(m);
        }
        return out;
    }

    /**
     * Queue statistics in the shape of Floodlight after v1.2 (v1.2 itself answered an OpenFlow 1.0 switch with an
     * empty object, which no client can use).
     */
    public static Map<String, Object> queue(List<OFQueueStatsEntry> entries) {
        var queues = new ArrayList<Map<String, Object>>();
        for (var e : entries) {
            var m = new LinkedHashMap<String, Object>();
            m.put("port", FloodlightMatch.port(e.portNo()));
            m.put("queue_id", u(e.queueId()));
            m.put("tx_bytes", u(e.txBytes()));
            m.put("tx_packets", u(e.txPackets()));
            m.put("tx_errors", u(e.txErrors()));
            queues.add(m);
        }
        var m = new LinkedHashMap<String, Object>();
        m.put("version", VERSION);
        m.put("queues", queues);
        return m;
    }

    private static <T> List<T> sortedByPort(Collection<T> items, java.util.function.ToIntFunction<T> port) {
        var sorted = new ArrayList<>(items);
        sorted.sort(Comparator.comparingInt(port));
        return sorted;
    }

    private static String names(long bits, String[] names) {
        var set = new ArrayList<String>();
        for (int i = 0; i < names.length; i++) {
            if ((bits & (1L << i)) != 0) {
                set.add(names[i]);
            }
        }
        return set.toString();
    }

    private static String u(long v) {
        return Long.toUnsignedString(v);
    }
}
