package net.beaconcontroller.maple.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.maple.InconsistentPolicyException;
import net.beaconcontroller.maple.Route;
import net.beaconcontroller.topology.SwitchPort;

class TraceTreeTest {
    private static final SwitchPort IN = new SwitchPort(1, 1);
    private static final Dependencies NONE = new Dependencies(Set.of(), Set.of(), false);

    private static Header to(long dst, int tpDst) {
        return Header.of(IN, 0xa, dst, Field.VLAN_NONE, 0, Field.ETH_IPV4, 0, 6, 1, 2, 1000, tpDst);
    }

    private static Trace trace(Route route, Dependencies deps, Event... events) {
        return new Trace(List.of(events), route, deps);
    }

    private static Event.Read dst(long mac) {
        return new Event.Read(Field.DL_DST, mac);
    }

    private static Event.Check ssh(boolean outcome) {
        return new Event.Check(new FieldTest.Equals(Field.TP_DST, 22L), outcome);
    }

    @Test
    void lookupFollowsReadsAndTestsAndMissesWhatIsUnknown() {
        var tree = new TraceTree();
        assertNull(tree.lookup(to(0xb, 80)));
        tree.augment(trace(Route.FLOOD, NONE, dst(0xb), ssh(false)));
        assertEquals(Route.FLOOD, tree.lookup(to(0xb, 80)));
        assertNull(tree.lookup(to(0xb, 22)), "the true branch is still unknown");
        assertNull(tree.lookup(to(0xc, 80)), "a value not seen is unknown");
        Node added = tree.augment(trace(Route.DROP, NONE, dst(0xb), ssh(true)));
        assertTrue(added instanceof Node.Leaf);
        assertEquals(Route.DROP, tree.lookup(to(0xb, 22)));
        assertNull(tree.augment(trace(Route.DROP, NONE, dst(0xb), ssh(true))), "already there");
        assertEquals(2, tree.leafCount());
    }

    @Test
    void aTraceThatContradictsTheTreeIsRefusedAndChangesNothing() {
        var tree = new TraceTree();
        tree.augment(trace(Route.FLOOD, NONE, dst(0xb)));
        var otherRoute = assertThrows(InconsistentPolicyException.class,
                () -> tree.augment(trace(Route.DROP, NONE, dst(0xb))));
        assertTrue(otherRoute.getMessage().contains("Flood"), otherRoute.getMessage());
        assertThrows(InconsistentPolicyException.class,
                () -> tree.augment(trace(Route.DROP, NONE, new Event.Read(Field.DL_SRC, 0xaL))));
        assertThrows(InconsistentPolicyException.class,
                () -> tree.augment(trace(Route.DROP, NONE, dst(0xb), ssh(true))));
        tree.augment(trace(Route.DROP, NONE, dst(0xc), ssh(true)));
        assertThrows(InconsistentPolicyException.class, () -> tree.augment(trace(Route.DROP, NONE, dst(0xc))),
                "ends where the tree goes on");
        assertEquals(Route.FLOOD, tree.lookup(to(0xb, 80)));
        assertEquals(2, tree.leafCount());
    }

    @Test
    void invalidationRemovesTheDependentLeavesAndTheNodesTheyLeaveEmpty() {
        var tree = new TraceTree();
        var onB = new Dependencies(Set.of(0xbL), Set.of(new SwitchPort(2, 3)), false);
        var onC = new Dependencies(Set.of(0xcL), Set.of(new SwitchPort(2, 3)), true);
        tree.augment(trace(Route.DROP, onB, dst(0xb), ssh(true)));
        tree.augment(trace(Route.FLOOD, onB, dst(0xb), ssh(false)));
        tree.augment(trace(Route.FLOOD, onC, dst(0xc)));
        Node read = tree.root();

        var byHost = tree.invalidateHost(0xb);
        assertEquals(3, byHost.removed().size(), "two leaves and the T node above them");
        assertEquals(List.of(read), byHost.survivors());
        assertNull(tree.lookup(to(0xb, 22)));
        assertEquals(Route.FLOOD, tree.lookup(to(0xc, 80)));
        assertEquals(1, tree.leafCount());

        assertEquals(0, tree.invalidateHost(0xb).removed().size(), "nothing depends on it any more");
        var byTopology = tree.invalidateTopology();
        assertEquals(2, byTopology.removed().size(), "the leaf and the emptied root");
        assertTrue(byTopology.survivors().isEmpty());
        assertNull(tree.root());

        tree.augment(trace(Route.FLOOD, onC, dst(0xc)));
        assertEquals(2, tree.invalidatePort(new SwitchPort(2, 3)).removed().size());
        assertEquals(0, tree.leafCount());
    }

    @Test
    void clearingRemovesEverything() {
        var tree = new TraceTree();
        tree.augment(trace(Route.DROP, NONE, dst(0xb), ssh(true)));
        Node root = tree.root();
        var all = tree.clear();
        assertSame(root, all.removed().get(0));
        assertEquals(3, all.removed().size());
        assertNull(tree.lookup(to(0xb, 22)));
    }
}
