package net.beaconcontroller.routing.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;

class AwaitingHostTest {
    private static final OFFlowStatsEntry FLOW = new OFFlowStatsEntry(0, OFMatch.ALL, 1, 0, 1, 5, 0, 0, 0, 0,
            List.of());

    @Test
    void boundedInNumberAndAgeAndTakenOnce() {
        var awaiting = new AwaitingHost(3, 100);
        awaiting.add(1, 0, 10, FLOW, 0);
        awaiting.add(1, 0, 11, FLOW, 50);
        awaiting.add(2, 0, 10, FLOW, 50);
        awaiting.add(3, 0, 10, FLOW, 50); // over the limit: not kept
        assertEquals(3, awaiting.size());
        assertEquals(List.of(11L), awaiting.take(1, 0, 120).stream().map(AwaitingHost.Flow::dpid).toList(),
                "the flow kept at 0 is too old at 120");
        assertEquals(List.of(), awaiting.take(1, 0, 120), "taken once");
        assertEquals(List.of(), awaiting.take(2, 7, 60), "another VLAN is another host");
        awaiting.expire(200);
        assertEquals(0, awaiting.size());
        awaiting.add(3, 0, 10, FLOW, 200);
        assertEquals(1, awaiting.take(3, 0, 200).size(), "room again");
    }
}
