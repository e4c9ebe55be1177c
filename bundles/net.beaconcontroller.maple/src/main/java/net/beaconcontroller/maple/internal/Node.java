package net.beaconcontroller.maple.internal;

import java.util.LinkedHashMap;
import java.util.Map;

import net.beaconcontroller.maple.Route;

/**
 * A trace tree node. An unknown subtree (Maple's Ω) is a null child. Each node knows its slot in its parent, so
 * invalidation can cut it out, and the priority interval {@code [lo, hi]} its rules live in (kept by
 * {@link Priorities}; a leaf's rule has priority {@code hi}).
 *
 * <p>Not thread-safe: the tree and everything in it belong to one thread.
 */
abstract sealed class Node permits Node.Leaf, Node.Read, Node.Branch {
    Node parent;
    /** In a {@link Read} parent: the value this node hangs under; in a {@link Branch}: {@code Boolean}. */
    Object slot;
    int lo;
    int hi;

    /** L: the route of every packet that reaches it. */
    static final class Leaf extends Node {
        final Route route;
        final Dependencies dependencies;

        Leaf(Route route, Dependencies dependencies) {
            this.route = route;
            this.dependencies = dependencies;
        }
    }

    /** V: the policy read {@code field}; one child per value seen. Values not seen are unknown. */
    static final class Read extends Node {
        final Field field;
        final Map<Object, Node> children = new LinkedHashMap<>();

        Read(Field field) {
            this.field = field;
        }
    }

    /** T: the policy asked {@code test}. {@code barrier} is the priority of its barrier rule. */
    static final class Branch extends Node {
        final FieldTest test;
        Node yes;
        Node no;
        int barrier;

        Branch(FieldTest test) {
            this.test = test;
        }

        Node child(boolean outcome) {
            return outcome ? yes : no;
        }
    }

    /** Puts {@code child} (possibly null: unknown) into {@code slot} of {@code parent}. */
    static void attach(Node parent, Object slot, Node child) {
        if (parent instanceof Read r) {
            if (child == null) {
                r.children.remove(slot);
            } else {
                r.children.put(slot, child);
            }
        } else if ((Boolean) slot) {
            ((Branch) parent).yes = child;
        } else {
            ((Branch) parent).no = child;
        }
        if (child != null) {
            child.parent = parent;
            child.slot = slot;
        }
    }
}
