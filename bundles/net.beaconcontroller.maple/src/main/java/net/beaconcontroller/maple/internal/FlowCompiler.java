package net.beaconcontroller.maple.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

import net.beaconcontroller.maple.Route;
import net.beaconcontroller.topology.SwitchPort;

/**
 * Compiles the trace tree into one OpenFlow 1.0 flow table per switch and keeps them up to date incrementally: it
 * remembers the rule each node has on each switch and, after a change to the tree, recompiles only the nodes the
 * change can affect and hands out the difference.
 *
 * <p>The rules (Maple's in-order compilation): a leaf becomes a rule matching its {@link Context} with its route's
 * action at that switch; a T node becomes a barrier rule (to the controller) between its true and false branches,
 * matching its context and its test, so packets that pass the test but no rule of the true branch do not fall into
 * the false branch. A barrier is left out where the true branch already catches every such packet (barrier
 * elimination); V nodes need none, their children match disjoint packets.
 *
 * <p>Where rules exist: a decision whose context fixed the ingress ({@link Field#IN_PORT}) only at the ingress
 * switch, matching {@code in_port}; other decisions on every switch where the route acts (every switch for drop,
 * to-controller and flood, the hops of a forward route). A switch cannot test where a packet entered the network,
 * so a T node testing for an ingress on another switch becomes, there, a rule sending everything in its context to
 * the controller when a route of its true branch crosses that switch. This is sound as long as the ingresses a
 * policy sees are edge ports, never ports that links arrive on (the runtime's contract).
 *
 * <p>Not thread-safe: owned by the tree's thread.
 */
final class FlowCompiler {
    private final Priorities priorities;
    private final Set<Long> switches = new LinkedHashSet<>();
    private final Map<Node, Map<Long, Rule>> installed = new HashMap<>();

    FlowCompiler(Priorities priorities) {
        this.priorities = priorities;
    }

    /**
     * The changes after {@code fresh} was attached to the tree.
     *
     * @throws Priorities.ExhaustedException when the tree no longer fits the priority band; nothing changed
     */
    List<FlowChange> augmented(Node fresh) {
        Node top = priorities.place(fresh);
        var changes = new Changes();
        Context ctx = refreshAbove(top.parent, top.slot, new HashSet<>(), changes);
        if (top != fresh) {
            // Re-spaced: the subtree's rules move. Its slot's interval is unchanged and ends at top.hi, so a rule
            // one level higher is above all of them, old and new, and below everything that precedes them.
            for (Long s : switches) {
                if (!ctx.elsewhere(s)) {
                    changes.cover(new Rule(s, ctx.match(), top.hi + 1, Actions.TO_CONTROLLER));
                }
            }
        }
        compile(top, ctx, switches, changes);
        return changes.ordered();
    }

    /** The changes after an invalidation took {@code removal}'s nodes out of the tree. */
    List<FlowChange> removed(TraceTree.Removal removal) {
        var changes = new Changes();
        for (Node n : removal.removed()) {
            Map<Long, Rule> rules = installed.remove(n);
            if (rules != null) {
                changes.nextGroup();
                int hop = 0;
                for (Long s : order(n, rules.keySet())) {
                    changes.add(n instanceof Node.Branch, hop++, new FlowChange(FlowChange.Kind.DELETE,
                            rules.get(s)));
                }
            }
        }
        var done = new HashSet<Node>();
        for (Node n : removal.survivors()) {
            Context ctx = refreshAbove(n.parent, n.slot, done, changes);
            if (n instanceof Node.Branch b && done.add(b)) {
                refreshBarrier(b, ctx, switches, changes);
            }
        }
        return changes.ordered();
    }

    /** The rules of the whole tree for a switch that just connected. */
    List<FlowChange> switchAdded(long dpid, Node root) {
        if (!switches.add(dpid)) {
            return List.of();
        }
        var changes = new Changes();
        if (root != null) {
            compile(root, Context.ROOT, Set.of(dpid), changes);
        }
        return changes.ordered();
    }

    /** Forgets a switch that disconnected (its table is gone with it). */
    void switchRemoved(long dpid) {
        switches.remove(dpid);
        installed.values().forEach(rules -> rules.remove(dpid));
    }

    /** Every switch's rules, highest priority first. */
    Map<Long, List<Rule>> tables() {
        var tables = new TreeMap<Long, List<Rule>>();
        for (Map<Long, Rule> rules : installed.values()) {
            rules.forEach((s, r) -> tables.computeIfAbsent(s, k -> new ArrayList<>()).add(r));
        }
        tables.values().forEach(t -> t.sort((a, b) -> Integer.compare(b.priority(), a.priority())));
        return tables;
    }

    /**
     * Refreshes the barriers of the T nodes from the root down to (not including) the child in {@code slot} of
     * {@code parent}, and returns that child's context.
     */
    private Context refreshAbove(Node parent, Object slot, Set<Node> done, Changes changes) {
        var path = new ArrayDeque<Node>();
        Object childSlot = slot;
        var slots = new ArrayDeque<Object>();
        for (Node a = parent; a != null; a = a.parent) {
            path.push(a);
            slots.push(childSlot);
            childSlot = a.slot;
        }
        Context ctx = Context.ROOT;
        while (!path.isEmpty()) {
            Node a = path.pop();
            if (a instanceof Node.Branch b && done.add(b)) {
                refreshBarrier(b, ctx, switches, changes);
            }
            ctx = ctx.below(a, slots.pop());
        }
        return ctx;
    }

    private void compile(Node n, Context ctx, Collection<Long> at, Changes changes) {
        if (n instanceof Node.Leaf l) {
            changes.nextGroup();
            int hop = 0;
            for (Long s : order(l, at)) {
                update(l, s, leafRule(l, ctx, s), hop++, changes);
            }
        } else if (n instanceof Node.Read r) {
            for (var child : r.children.entrySet()) {
                compile(child.getValue(), ctx.with(new FieldTest.Equals(r.field, child.getKey())), at, changes);
            }
        } else {
            var b = (Node.Branch) n;
            refreshBarrier(b, ctx, at, changes);
            if (b.yes != null) {
                compile(b.yes, ctx.with(b.test), at, changes);
            }
            if (b.no != null) {
                compile(b.no, ctx, at, changes);
            }
        }
    }

    private void refreshBarrier(Node.Branch b, Context ctx, Collection<Long> at, Changes changes) {
        changes.nextGroup();
        for (Long s : at) {
            update(b, s, barrierRule(b, ctx, s), 0, changes);
        }
    }

    private void update(Node n, long s, Rule wanted, int hop, Changes changes) {
        Map<Long, Rule> rules = installed.get(n);
        Rule old = rules == null ? null : rules.get(s);
        if (Objects.equals(old, wanted)) {
            return;
        }
        boolean barrier = n instanceof Node.Branch;
        if (wanted == null) {
            rules.remove(s);
            if (rules.isEmpty()) {
                installed.remove(n);
            }
            changes.add(barrier, hop, new FlowChange(FlowChange.Kind.DELETE, old));
            return;
        }
        installed.computeIfAbsent(n, k -> new LinkedHashMap<>()).put(s, wanted);
        if (old != null && old.match().equals(wanted.match()) && old.priority() == wanted.priority()) {
            changes.add(barrier, hop, new FlowChange(FlowChange.Kind.MODIFY, wanted));
            return;
        }
        changes.add(barrier, hop, new FlowChange(FlowChange.Kind.ADD, wanted));
        if (old != null) {
            changes.add(barrier, hop, new FlowChange(FlowChange.Kind.DELETE, old));
        }
    }

    /** The switches of {@code at} in route order: a forward route's hops first to last, then the others. */
    private static List<Long> order(Node n, Collection<Long> at) {
        if (!(n instanceof Node.Leaf l) || !(l.route instanceof Route.Forward f)) {
            return List.copyOf(at);
        }
        var ordered = new ArrayList<Long>(at.size());
        for (Route.Hop h : f.hops()) {
            if (at.contains(h.dpid())) {
                ordered.add(h.dpid());
            }
        }
        for (Long s : at) {
            if (f.hopAt(s) == null) {
                ordered.add(s);
            }
        }
        return ordered;
    }

    private static Rule leafRule(Node.Leaf l, Context ctx, long s) {
        if (ctx.elsewhere(s)) {
            return null;
        }
        var actions = Actions.at(l.route, s);
        return actions == null ? null : new Rule(s, ctx.match(), l.hi, actions);
    }

    private static Rule barrierRule(Node.Branch b, Context ctx, long s) {
        if (ctx.elsewhere(s)) {
            return null;
        }
        if (testsIngressElsewhere(b, s)) {
            return reaches(b.yes, s) ? new Rule(s, ctx.match(), b.barrier, Actions.TO_CONTROLLER) : null;
        }
        Context yes = ctx.with(b.test);
        if (complete(b.yes, yes, s)) {
            return null;
        }
        return new Rule(s, yes.match(), b.barrier, Actions.TO_CONTROLLER);
    }

    private static boolean testsIngressElsewhere(Node.Branch b, long s) {
        return b.test instanceof FieldTest.Equals e && e.field() == Field.IN_PORT
                && ((SwitchPort) e.value()).dpid() != s;
    }

    /** Whether the subtree's rules at {@code s} catch every packet of its context there. */
    private static boolean complete(Node n, Context ctx, long s) {
        if (n instanceof Node.Leaf l) {
            return leafRule(l, ctx, s) != null;
        }
        if (n instanceof Node.Branch b) {
            // Its barrier catches what its true branch leaves, so only its false branch can leave a gap.
            if (testsIngressElsewhere(b, s) && reaches(b.yes, s)) {
                return true;
            }
            return complete(b.no, ctx, s);
        }
        return false; // unknown, or a V node: values not seen yet go to the controller
    }

    /** Whether a packet of some leaf of the subtree can travel to switch {@code s}. */
    private static boolean reaches(Node n, long s) {
        if (n instanceof Node.Leaf l) {
            return l.route instanceof Route.Flood || l.route instanceof Route.Forward f && f.hopAt(s) != null;
        }
        if (n instanceof Node.Read r) {
            return r.children.values().stream().anyMatch(c -> reaches(c, s));
        }
        return n != null && (reaches(((Node.Branch) n).yes, s) || reaches(((Node.Branch) n).no, s));
    }
}
