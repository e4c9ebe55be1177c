package net.beaconcontroller.maple.internal;

/**
 * Priorities from the trace tree's in-order walk, with Maple's priority minimization: the children of a V node
 * match disjoint packets, so they share their parent's interval; only a T node orders its parts (its true branch
 * above its barrier above its false branch). Each node keeps an interval with room to spare, spread by the size of
 * its parts and an unknown part counting as one, so most augments fit into the unknown slot's interval and change
 * no existing rule. When one does not fit, the nearest ancestor with room enough is re-spaced.
 */
final class Priorities {
    private final int min;
    private final int max;

    /**
     * Rules use priorities {@code min..max}; {@code max + 1} is kept for the cover rule while rules move
     * ({@link Changes#cover}), so {@code max} is at most 65534.
     */
    Priorities(int min, int max) {
        if (min < 0 || max > 0xfffe || max < min) {
            throw new IllegalArgumentException("a priority band is within 0..65534, not " + min + ".." + max);
        }
        this.min = min;
        this.max = max;
    }

    /** The tree's whole band cannot hold it. */
    static final class ExhaustedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ExhaustedException(String message) {
            super(message);
        }
    }

    /**
     * Gives {@code fresh}, just attached, priorities. Returns the node whose subtree got new priorities: {@code fresh}
     * itself, or an ancestor that had to be re-spaced (its existing rules change priority).
     *
     * @throws ExhaustedException when the whole tree needs more levels than the band has; nothing is changed
     */
    Node place(Node fresh) {
        int need = need(fresh);
        Node at = fresh;
        while (true) {
            Node p = at.parent;
            int lo = p == null ? min : slotLo(p, at.slot);
            int hi = p == null ? max : slotHi(p, at.slot);
            if (hi - lo + 1 >= need) {
                assign(at, lo, hi);
                return at;
            }
            if (p == null) {
                throw new ExhaustedException("the trace tree needs " + need + " priority levels, the band "
                        + min + ".." + max + " has " + (max - min + 1));
            }
            at = p;
            need = need(at);
        }
    }

    private static int slotLo(Node parent, Object slot) {
        return parent instanceof Node.Branch b && (Boolean) slot ? b.barrier + 1 : parent.lo;
    }

    private static int slotHi(Node parent, Object slot) {
        return parent instanceof Node.Branch b && !(Boolean) slot ? b.barrier - 1 : parent.hi;
    }

    /** Levels the subtree needs at least. */
    static int need(Node n) {
        return levels(n, 0);
    }

    /** How much of a spare interval the subtree should get: its levels, an unknown part counting as one. */
    private static int weight(Node n) {
        return levels(n, 1);
    }

    private static int levels(Node n, int unknown) {
        if (n == null) {
            return unknown;
        }
        if (n instanceof Node.Leaf) {
            return 1;
        }
        if (n instanceof Node.Read r) {
            int most = unknown;
            for (Node c : r.children.values()) {
                most = Math.max(most, levels(c, unknown));
            }
            return most;
        }
        var b = (Node.Branch) n;
        return levels(b.yes, unknown) + 1 + levels(b.no, unknown);
    }

    /** Lays the subtree out in {@code [lo, hi]}, which holds at least {@link #need} levels. */
    private static void assign(Node n, int lo, int hi) {
        n.lo = lo;
        n.hi = hi;
        if (n instanceof Node.Read r) {
            for (Node c : r.children.values()) {
                assign(c, lo, hi);
            }
        } else if (n instanceof Node.Branch b) {
            int needYes = need(b.yes);
            int needNo = need(b.no);
            long spare = (long) (hi - lo + 1) - needYes - 1 - needNo;
            int weightYes = weight(b.yes);
            int weightNo = weight(b.no);
            int noSize = needNo + (int) (spare * weightNo / (weightYes + weightNo));
            b.barrier = lo + noSize;
            if (b.no != null) {
                assign(b.no, lo, b.barrier - 1);
            }
            if (b.yes != null) {
                assign(b.yes, b.barrier + 1, hi);
            }
        }
    }
}
