package net.beaconcontroller.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.cluster.internal.Mastership.Change;
import net.beaconcontroller.cluster.internal.MemberReport.SwitchReport;
import net.beaconcontroller.openflow.vendor.NiciraRole;

class MastershipTest {
    private static final List<String> LIVE = List.of("a", "b", "c");
    private final Mastership mastership = new Mastership();

    /** A report of {@code member}: pairs of (dpid, role) as "1M", "2S", "3O". */
    private static MemberReport report(String member, String... switches) {
        return new MemberReport(member, -1, Arrays.stream(switches).map(s -> new SwitchReport(
                Long.parseLong(s.substring(0, s.length() - 1)), switch (s.charAt(s.length() - 1)) {
                    case 'M' -> NiciraRole.MASTER;
                    case 'S' -> NiciraRole.SLAVE;
                    default -> NiciraRole.OTHER;
                }, 0)).toList());
    }

    private static Map<String, MemberReport> reports(MemberReport... rs) {
        var result = new HashMap<String, MemberReport>();
        for (var r : rs) {
            result.put(r.member(), r);
        }
        return result;
    }

    @Test
    void aLiveConnectedMasterKeepsItsSwitch() {
        var r = reports(report("a", "1S"), report("b", "1S"), report("c", "1M"));
        assertEquals(List.of(), mastership.decide(LIVE, Set.of(), r, Map.of(1L, "b"), 0));
    }

    @Test
    void aSwitchWhoseMasterDiedGoesToTheMemberTheSwitchAlreadyHasAsMaster() {
        // The masters map lost its entry with the dead member's partition; c's report says the switch granted it
        // MASTER: c keeps it, no role changes at the switch.
        var r = reports(report("a", "1S"), report("c", "1M"));
        assertEquals(List.of(new Change(1, null, "c")),
                mastership.decide(List.of("a", "c"), Set.of(), r, Map.of(), 0));
        assertEquals(List.of(new Change(1, "b", "c")),
                mastership.decide(List.of("a", "c"), Set.of(), r, Map.of(1L, "b"), 0));
    }

    @Test
    void withoutAHolderTheConnectedMemberWithFewestSwitchesTakesIt() {
        var r = reports(report("a", "1S", "2M", "3M"), report("c", "1S", "2S", "3S"));
        assertEquals(List.of(new Change(1, "b", "c")),
                mastership.decide(List.of("a", "c"), Set.of(), r, Map.of(1L, "b", 2L, "a", 3L, "a"), 0));
    }

    @Test
    void aLeavingMemberGetsASwitchOnlyWhenNoOtherIsConnected() {
        var r = reports(report("a", "1S", "2S"), report("c", "1S"));
        var changes = mastership.decide(List.of("a", "c"), Set.of("c"), r, Map.of(1L, "b", 2L, "b"), 0);
        assertEquals(List.of(new Change(1, "b", "a"), new Change(2, "b", "a")), changes);
        var onlyLeaving = reports(report("a"), report("c", "1S"));
        assertEquals(List.of(new Change(1, "b", "c")),
                mastership.decide(List.of("a", "c"), Set.of("c"), onlyLeaving, Map.of(1L, "b"), 0));
    }

    @Test
    void aLiveMasterMissingFromItsReportKeepsTheSwitchForTheGracePeriod() {
        // b claimed the switch as it connected; its report may lag the claim.
        var r = reports(report("a", "1S"), report("b"), report("c", "1S"));
        assertEquals(List.of(), mastership.decide(LIVE, Set.of(), r, Map.of(1L, "b"), 0));
        assertEquals(List.of(), mastership.decide(LIVE, Set.of(), r, Map.of(1L, "b"), Mastership.GRACE_NANOS - 1));
        var late = mastership.decide(LIVE, Set.of(), r, Map.of(1L, "b"), Mastership.GRACE_NANOS);
        assertEquals(1, late.size());
        assertEquals("b", late.get(0).from());
        assertTrue(Set.of("a", "c").contains(late.get(0).to()));
    }

    @Test
    void aSwitchNoLiveMemberReportsIsDropped() {
        var r = reports(report("a"), report("c"));
        assertEquals(List.of(new Change(7, "b", null)),
                mastership.decide(List.of("a", "c"), Set.of(), r, Map.of(7L, "b"), 0));
    }

    @Test
    void aMemberWithoutAReportIsConnectedToNothing() {
        var r = reports(report("a", "1S"));
        assertEquals(List.of(new Change(1, null, "a")), mastership.decide(LIVE, Set.of(), r, Map.of(), 0));
    }

    @Test
    void newMastersAreSpreadOverTheConnectedMembers() {
        var r = reports(report("a", "1S", "2S", "3S"), report("b", "1S", "2S", "3S"), report("c", "1S", "2S", "3S"));
        var changes = mastership.decide(LIVE, Set.of(), r, Map.of(), 0);
        assertEquals(Set.of("a", "b", "c"), Set.copyOf(changes.stream().map(Change::to).toList()));
    }

    @Test
    void aMasterAnotherMemberAlsoReportsAsMasterIsContested() {
        var r = reports(report("a", "1M", "2M"), report("b", "1M"));
        assertEquals(Set.of(1L), Mastership.contested("a", List.of("a", "b"), r, Map.of(1L, "a", 2L, "a")));
        assertEquals(Set.of(), Mastership.contested("b", List.of("a", "b"), r, Map.of(1L, "a", 2L, "a")));
        // A member that is not live any more contests nothing.
        assertEquals(Set.of(), Mastership.contested("a", List.of("a"), r, Map.of(1L, "a", 2L, "a")));
    }

    /** Every survivor computes the same successors from the masters map alone: fewest first, oldest on ties. */
    @Test
    void theSuccessorsOfADeadMasterAreTheLeastLoadedOldestFirst() {
        var masters = Map.of(1L, "dead", 2L, "dead", 3L, "dead", 4L, "a", 5L, "c", 6L, "c");
        var successors = Mastership.successors("dead", List.of("a", "b", "c"), masters);
        assertEquals(Map.of(1L, "b", 2L, "a", 3L, "b"), successors);
        assertEquals(Map.of(), Mastership.successors("dead", List.of("a"), Map.of(4L, "a")));
    }
}
