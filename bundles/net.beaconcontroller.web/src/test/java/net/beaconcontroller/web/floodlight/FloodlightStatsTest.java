package net.beaconcontroller.web.floodlight;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import net.beaconcontroller.openflow.OFFeaturesReply;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFActions;
import net.beaconcontroller.openflow.statistics.OFAggregateStatsReply;
import net.beaconcontroller.openflow.statistics.OFDescStatsReply;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.openflow.statistics.OFPortStatsEntry;
import net.beaconcontroller.openflow.statistics.OFQueueStatsEntry;
import net.beaconcontroller.openflow.statistics.OFTableStatsEntry;

/** The statistics as JSON text, compared with Floodlight v1.2's shapes (floodlight-rest.md). */
class FloodlightStatsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String json(Object tree) throws Exception {
        return JSON.writeValueAsString(tree);
    }

    @Test
    void portStatistics() throws Exception {
        var e = new OFPortStatsEntry(1, 9, 7, 700, 600, 0, 0, 0, 0, 0, 0, 0, 0);
        var local = new OFPortStatsEntry(OFPort.LOCAL, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -1);
        assertEquals("{\"port_reply\":[{\"version\":\"OF_10\",\"port\":[{\"portNumber\":\"1\",\"receivePackets\":\"9\","
                + "\"transmitPackets\":\"7\",\"receiveBytes\":\"700\",\"transmitBytes\":\"600\",\"receiveDropped\":\"0\","
                + "\"transmitDropped\":\"0\",\"receiveErrors\":\"0\",\"transmitErrors\":\"0\",\"receiveFrameErrors\":\"0\","
                + "\"receiveOverrunErrors\":\"0\",\"receiveCRCErrors\":\"0\",\"collisions\":\"0\"},{\"portNumber\":\"local\","
                + "\"receivePackets\":\"1\",\"transmitPackets\":\"2\",\"receiveBytes\":\"3\",\"transmitBytes\":\"4\","
                + "\"receiveDropped\":\"5\",\"transmitDropped\":\"6\",\"receiveErrors\":\"7\",\"transmitErrors\":\"8\","
                + "\"receiveFrameErrors\":\"9\",\"receiveOverrunErrors\":\"10\",\"receiveCRCErrors\":\"11\","
                + "\"collisions\":\"18446744073709551615\"}]}]}", json(FloodlightStats.port(List.of(local, e))));
    }

    @Test
    void flowStatistics() throws Exception {
        var f = new OFFlowStatsEntry(0, OFMatch.parse("in_port=1,dl_dst=00:00:00:00:00:02"), 12, 5000, 32768, 0, 0,
                0, 3, 294, OFActions.parse("output:2"));
        var drop = new OFFlowStatsEntry(0, OFMatch.ALL, 1, 2, 1, 5, 10, 0x726f757465000000L, 0, 0, List.of());
        assertEquals("{\"flows\":[{\"version\":\"OF_10\",\"cookie\":\"0\",\"tableId\":\"0x0\",\"packetCount\":\"3\","
                + "\"byteCount\":\"294\",\"durationSeconds\":\"12\",\"durationNSeconds\":\"5000\",\"priority\":\"32768\","
                + "\"idleTimeoutSec\":\"0\",\"hardTimeoutSec\":\"0\",\"match\":{\"in_port\":\"1\",\"eth_dst\":"
                + "\"00:00:00:00:00:02\"},\"actions\":{\"actions\":\"output=2\"}},{\"version\":\"OF_10\",\"cookie\":"
                + "\"" + Long.toUnsignedString(0x726f757465000000L) + "\",\"tableId\":\"0x0\",\"packetCount\":\"0\",\"byteCount\":\"0\","
                + "\"durationSeconds\":\"1\",\"durationNSeconds\":\"2\",\"priority\":\"1\",\"idleTimeoutSec\":\"5\","
                + "\"hardTimeoutSec\":\"10\",\"match\":{},\"actions\":{\"none\":\"drop\"}}]}",
                json(FloodlightStats.flows(List.of(f, drop))));
    }

    @Test
    void aggregateDescAndTable() throws Exception {
        assertEquals("{\"aggregate\":{\"version\":\"OF_10\",\"flowCount\":\"3\",\"packetCount\":\"10\",\"byteCount\":"
                + "\"980\",\"flags\":\"0\"}}", json(FloodlightStats.aggregate(new OFAggregateStatsReply(10, 980, 3))));
        assertEquals("{\"desc\":{\"version\":\"OF_10\",\"manufacturerDescription\":\"Nicira, Inc.\","
                + "\"hardwareDescription\":\"Open vSwitch\",\"softwareDescription\":\"3.1.0\",\"serialNumber\":\"None\","
                + "\"datapathDescription\":\"s1\"}}", json(FloodlightStats.desc(new OFDescStatsReply("Nicira, Inc.",
                        "Open vSwitch", "3.1.0", "None", "s1"))));
        assertEquals("{\"version\":\"OF_10\",\"table\":[{\"tableId\":\"0x0\",\"activeCount\":\"3\",\"lookUpCount\":"
                + "\"40\",\"matchCount\":\"30\",\"name\":\"classifier\",\"wildcards\":\"4194303\",\"maxEntries\":"
                + "\"1000000\"}]}", json(FloodlightStats.table(List.of(new OFTableStatsEntry(0, "classifier",
                        4194303, 1000000, 3, 40, 30)))));
    }

    @Test
    void featuresWithTheCurrentPorts() throws Exception {
        var port = new OFPhysicalPort(OFPort.LOCAL, 0xaabbccddeeffL, "s1", 1, 0, 0, 0, 0, 0);
        var f = new OFFeaturesReply(0, 1, 256, 254, OFFeaturesReply.CAP_FLOW_STATS | OFFeaturesReply.CAP_TABLE_STATS
                | OFFeaturesReply.CAP_PORT_STATS | OFFeaturesReply.CAP_ARP_MATCH_IP, 0b111, List.of());
        assertEquals("{\"capabilities\":\"[FLOW_STATS, TABLE_STATS, PORT_STATS, ARP_MATCH_IP]\",\"dpid\":"
                + "\"00:00:00:00:00:00:00:01\",\"buffers\":\"256\",\"tables\":\"254\",\"version\":\"OF_10\",\"portDesc\":"
                + "[{\"portNumber\":\"local\",\"hardwareAddress\":\"aa:bb:cc:dd:ee:ff\",\"name\":\"s1\",\"config\":\"1\","
                + "\"state\":\"0\",\"currentFeatures\":\"0\",\"advertisedFeatures\":\"0\",\"supportedFeatures\":\"0\","
                + "\"peerFeatures\":\"0\"}],\"actions\":\"[OUTPUT, SET_VLAN_VID, SET_VLAN_PCP]\"}",
                json(FloodlightStats.features(f, List.of(port))));
    }

    @Test
    void queues() throws Exception {
        assertEquals(Map.of("version", "OF_10", "queues", List.of(Map.of("port", "2", "queue_id", "1", "tx_bytes", "3",
                "tx_packets", "4", "tx_errors", "5"))), FloodlightStats.queue(List.of(new OFQueueStatsEntry(2, 1, 3,
                        4, 5))));
    }
}
