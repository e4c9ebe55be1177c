package net.beaconcontroller.maple.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import net.beaconcontroller.maple.InconsistentPolicyException;
import net.beaconcontroller.maple.Route;
import net.beaconcontroller.topology.SwitchPort;

/**
 * Maple's trace tree: the merged traces of a policy. A lookup follows a packet's values through V (read) and T
 * (test) nodes to a leaf's route, or to an unknown subtree (a miss: run the policy). Leaves are indexed by what
 * they depend on, so a host move or a port change removes exactly the decisions that read it.
 *
 * <p>Not thread-safe: owned by one thread.
 */
final class TraceTree {
    private Node root;
    private final Map<Long, Set<Node.Leaf>> byHost = new HashMap<>();
    private final Map<SwitchPort, Set<Node.Leaf>> byPort = new HashMap<>();
    private final Set<Node.Leaf> byTopology = new LinkedHashSet<>();
    private int leaves;

    /**
     * What an invalidation took out: every node removed (leaves and the nodes left empty above them) and the
     * nodes still in the tree right above the cuts, whose barriers may have to change.
     */
    record Removal(List<Node> removed, List<Node> survivors) {
    }

    Node root() {
        return root;
    }

    int leafCount() {
        return leaves;
    }

    /** The route for {@code h}, or null when the tree does not know it. */
    Route lookup(Header h) {
        Node n = root;
        while (n != null) {
            if (n instanceof Node.Leaf l) {
                return l.route;
            }
            n = n instanceof Node.Read r ? r.children.get(h.value(r.field))
                    : ((Node.Branch) n).child(((Node.Branch) n).test.holds(h));
        }
        return null;
    }

    /**
     * Adds a trace. Returns the new subtree now hanging where the tree was unknown, or null when the tree already
     * had the trace.
     *
     * @throws InconsistentPolicyException when the trace contradicts the tree; the tree is unchanged
     */
    Node augment(Trace t) {
        List<Event> events = t.events();
        Node parent = null;
        Object slot = null;
        Node n = root;
        int i = 0;
        while (n != null) {
            if (n instanceof Node.Leaf l) {
                if (i < events.size()) {
                    throw inconsistent(t, i, "the tree ends with " + l.route + " here");
                }
                if (!l.route.equals(t.route())) {
                    throw inconsistent(t, i, "the tree has " + l.route + " for the same reads");
                }
                return null;
            }
            if (i == events.size()) {
                throw inconsistent(t, i, "the tree goes on with " + describe(n));
            }
            Event e = events.get(i);
            if (n instanceof Node.Read r && e instanceof Event.Read read && read.field() == r.field) {
                slot = read.value();
            } else if (n instanceof Node.Branch b && e instanceof Event.Check c && c.test().equals(b.test)) {
                slot = c.outcome();
            } else {
                throw inconsistent(t, i, "the tree has " + describe(n) + " here");
            }
            parent = n;
            n = parent instanceof Node.Read r ? r.children.get(slot) : ((Node.Branch) parent).child((Boolean) slot);
            i++;
        }
        Node fresh = chain(t, i);
        if (parent == null) {
            root = fresh;
        } else {
            Node.attach(parent, slot, fresh);
        }
        return fresh;
    }

    private Node chain(Trace t, int from) {
        var leaf = new Node.Leaf(t.route(), t.dependencies());
        index(leaf);
        Node below = leaf;
        List<Event> events = t.events();
        for (int j = events.size() - 1; j >= from; j--) {
            Event e = events.get(j);
            Node above;
            Object slot;
            if (e instanceof Event.Read r) {
                above = new Node.Read(r.field());
                slot = r.value();
            } else {
                var c = (Event.Check) e;
                above = new Node.Branch(c.test());
                slot = c.outcome();
            }
            Node.attach(above, slot, below);
            below = above;
        }
        return below;
    }

    private static String describe(Node n) {
        return n instanceof Node.Read r ? "a read of " + r.field : "the test " + ((Node.Branch) n).test;
    }

    private static InconsistentPolicyException inconsistent(Trace t, int at, String tree) {
        String step = at < t.events().size() ? "step " + at + " " + t.events().get(at)
                : "the end with " + t.route();
        return new InconsistentPolicyException("the policy is not a function of what it reads: after "
                + t.events().subList(0, at) + " the new trace has " + step + ", but " + tree);
    }

    /** Removes the decisions that read host {@code mac}'s location. */
    Removal invalidateHost(long mac) {
        return remove(byHost.getOrDefault(mac, Set.of()));
    }

    /** Removes the decisions that read or send through {@code port} (a port or link went down or up). */
    Removal invalidatePort(SwitchPort port) {
        return remove(byPort.getOrDefault(port, Set.of()));
    }

    /** Removes the decisions that read a path (a new link may shorten it). */
    Removal invalidateTopology() {
        return remove(byTopology);
    }

    /** Removes everything (the policy changed). */
    Removal clear() {
        var removed = new ArrayList<Node>();
        collect(root, removed);
        root = null;
        byHost.clear();
        byPort.clear();
        byTopology.clear();
        leaves = 0;
        return new Removal(removed, List.of());
    }

    static void collect(Node n, List<Node> into) {
        if (n == null) {
            return;
        }
        into.add(n);
        if (n instanceof Node.Read r) {
            r.children.values().forEach(c -> collect(c, into));
        } else if (n instanceof Node.Branch b) {
            collect(b.yes, into);
            collect(b.no, into);
        }
    }

    /** Removes these leaves and the nodes they leave empty. */
    Removal remove(Collection<Node.Leaf> doomed) {
        var removed = new ArrayList<Node>();
        var gone = new HashSet<Node>();
        var above = new LinkedHashSet<Node>();
        for (Node.Leaf leaf : List.copyOf(doomed)) {
            unindex(leaf);
            Node cut = leaf;
            while (true) {
                removed.add(cut);
                gone.add(cut);
                Node p = cut.parent;
                if (p == null) {
                    root = null;
                    break;
                }
                Node.attach(p, cut.slot, null);
                if (!isEmpty(p)) {
                    above.add(p);
                    break;
                }
                cut = p;
            }
        }
        above.removeAll(gone);
        return new Removal(removed, List.copyOf(above));
    }

    private static boolean isEmpty(Node n) {
        return n instanceof Node.Read r ? r.children.isEmpty()
                : ((Node.Branch) n).yes == null && ((Node.Branch) n).no == null;
    }

    private void index(Node.Leaf leaf) {
        leaves++;
        Dependencies d = leaf.dependencies;
        d.hosts().forEach(h -> byHost.computeIfAbsent(h, k -> new LinkedHashSet<>()).add(leaf));
        d.ports().forEach(p -> byPort.computeIfAbsent(p, k -> new LinkedHashSet<>()).add(leaf));
        if (d.topology()) {
            byTopology.add(leaf);
        }
    }

    private void unindex(Node.Leaf leaf) {
        leaves--;
        Dependencies d = leaf.dependencies;
        d.hosts().forEach(h -> dropFrom(byHost, h, leaf));
        d.ports().forEach(p -> dropFrom(byPort, p, leaf));
        byTopology.remove(leaf);
    }

    private static <K> void dropFrom(Map<K, Set<Node.Leaf>> index, K key, Node.Leaf leaf) {
        Set<Node.Leaf> set = index.get(key);
        if (set != null && set.remove(leaf) && set.isEmpty()) {
            index.remove(key);
        }
    }
}
