package net.beaconcontroller.acl.internal;

import static net.beaconcontroller.acl.internal.FakeDevices.host;
import static net.beaconcontroller.acl.internal.FakeDevices.rule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.staticflowpusher.StaticFlow;

/** Which static flows the rules and hosts make, and that only the difference is applied. */
class EnforcerTest {
    private static final int H1 = 0x0a00_0001;
    private static final int H2 = 0x0a00_0002;
    private static final int H3 = 0x0a00_0003;
    private static final List<Device> HOSTS = List.of(host(H1, 1), host(H2, 2),
            host(H3, 3));

    @Test
    void aDenyIsADropFlowOnTheSwitchOfEachSourceHostAboveRouting() {
        var deny = rule(3, "src-ip", "10.0.0.0/31", "dst-ip", "10.0.0.3/32", "nw-proto", "ICMP");
        var flows = Enforcer.wanted(List.of(deny), HOSTS, dpid -> true, 40000);
        assertEquals(Set.of("ACLRule_3_00:00:00:00:00:00:00:01"), flows.keySet(),
                "10.0.0.0/31 holds 10.0.0.1 (switch 1); 10.0.0.2 is outside it");
        var f = flows.get("ACLRule_3_00:00:00:00:00:00:00:01");
        assertEquals(OFMatch.builder().dlType(0x0800).nwSrc(0x0a00_0000, 31).nwDst(H3, 32).nwProto(1).build(),
                f.match());
        assertEquals(List.of(), f.actions(), "no actions: dropped");
        assertEquals(40000 - 3, f.priority(), "earlier rules win");
        assertEquals(1, f.dpid());
    }

    @Test
    void withoutASourceTheDestinationHostsSwitchesAreUsedAndOnlySwitchesMasteredHere() {
        var deny = rule(1, "dst-ip", "10.0.0.0/30");
        assertEquals(new TreeSet<>(Set.of(1L, 2L, 3L)), Enforcer.switchesOf(deny, HOSTS));
        var flows = Enforcer.wanted(List.of(deny), HOSTS, dpid -> dpid != 2, 40000);
        assertEquals(Set.of(Enforcer.name(1, 1), Enforcer.name(1, 3)), flows.keySet());
    }

    @Test
    void anEarlierAllowInsideALaterDenyGoesToTheControllerAboveIt() {
        var allow = rule(1, "src-ip", "10.0.0.1/32", "dst-ip", "10.0.0.2/32", "action", "allow");
        var deny = rule(2, "src-ip", "10.0.0.0/24");
        var noHosts = rule(3, "src-ip", "10.0.1.0/24");
        var flows = Enforcer.wanted(List.of(allow, deny, noHosts), HOSTS, dpid -> true, 40000);
        var exception = flows.get(Enforcer.name(1, 1));
        assertEquals(List.of(OFActionOutput.toController(0xffff)), exception.actions());
        assertTrue(exception.priority() > flows.get(Enforcer.name(2, 1)).priority());
        assertEquals(Set.of(1L, 2L, 3L), Set.of(flows.get(Enforcer.name(1, 1)).dpid(),
                flows.get(Enforcer.name(1, 2)).dpid(), flows.get(Enforcer.name(1, 3)).dpid()),
                "on every switch of the DENY that covers it");
        assertEquals(3 + 3, flows.size(), "rule 3 is about no known host: no flow");
    }

    @Test
    void applyingChangesOnlyTheDifferenceAndLeavesFlowsOfLiveRulesOnOtherMembersSwitches() {
        var pusher = new FakePusher();
        var operatorsOwn = Enforcer.flow(rule(9, "src-ip", "10.0.0.9/32"), 7, List.of(), 100);
        pusher.add(new StaticFlow("mine", 7, operatorsOwn.match(), List.of(),
                100, 0, 0, 0, true));
        var deny = rule(1, "src-ip", "10.0.0.0/24", "nw-proto", "ICMP");
        var wanted = Enforcer.wanted(List.of(deny), HOSTS, dpid -> true, 40000);
        var covered = new ArrayList<StaticFlow>();
        assertEquals(new Enforcer.Applied(3, 0), Enforcer.apply(pusher, wanted, Set.of(1), dpid -> true,
                covered::add));
        assertEquals(Set.copyOf(wanted.values()), Set.copyOf(covered), "what a new drop flow covers is deleted first");
        assertEquals(new Enforcer.Applied(0, 0), Enforcer.apply(pusher, wanted, Set.of(1), dpid -> true,
                covered::add), "nothing to do the second time");
        assertEquals(3, covered.size());

        // Host 3 gone, switch 2 mastered elsewhere: only switch 3's flow goes.
        var fewer = Enforcer.wanted(List.of(deny), HOSTS.subList(0, 2), dpid -> dpid != 2, 40000);
        assertEquals(new Enforcer.Applied(0, 1), Enforcer.apply(pusher, fewer, Set.of(1), dpid -> dpid != 2,
                covered::add));
        assertEquals(List.of(Enforcer.name(1, 1), Enforcer.name(1, 2), "mine"), pusher.names());

        // Rule deleted: its flows go everywhere, the operator's own static flow stays.
        assertEquals(new Enforcer.Applied(0, 2), Enforcer.apply(pusher, Map.of(), Set.of(), dpid -> dpid != 2,
                covered::add));
        assertEquals(List.of("mine"), pusher.names());
    }

    @Test
    void ruleIdsAreReadOnlyFromTheAclsOwnNames() {
        assertEquals(12, Enforcer.ruleId(Enforcer.name(12, 0x1234)));
        assertEquals(-1, Enforcer.ruleId("ACLRule_x_1"));
        assertEquals(-1, Enforcer.ruleId("flow-1"));
    }
}
