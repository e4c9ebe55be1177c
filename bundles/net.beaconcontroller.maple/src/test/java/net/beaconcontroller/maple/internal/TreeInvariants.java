package net.beaconcontroller.maple.internal;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Checks the trace tree's structure: parent links, slots, and priority intervals nested as the compiler needs. */
final class TreeInvariants {
    private TreeInvariants() {
    }

    static void check(Node root, int min, int max) {
        if (root != null) {
            check(root, null, min, max);
        }
    }

    private static void check(Node n, Node parent, int lo, int hi) {
        assertSame(parent, n.parent, "parent link");
        assertTrue(lo <= n.lo && n.hi <= hi && n.lo <= n.hi,
                "interval [" + n.lo + "," + n.hi + "] outside its slot [" + lo + "," + hi + "]");
        if (n instanceof Node.Read r) {
            r.children.forEach((value, c) -> {
                assertTrue(value.equals(c.slot), "slot of a V child");
                check(c, n, n.lo, n.hi);
            });
        } else if (n instanceof Node.Branch b) {
            assertTrue(n.lo <= b.barrier && b.barrier <= n.hi, "barrier inside the interval");
            assertTrue(b.yes != null || b.no != null, "an empty T node stays in the tree");
            if (b.yes != null) {
                assertSame(Boolean.TRUE, b.yes.slot);
                check(b.yes, n, b.barrier + 1, n.hi);
            }
            if (b.no != null) {
                assertSame(Boolean.FALSE, b.no.slot);
                check(b.no, n, n.lo, b.barrier - 1);
            }
        }
    }
}
