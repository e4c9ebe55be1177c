package net.beaconcontroller.maple.internal;

import java.util.List;
import java.util.Map;

import net.beaconcontroller.maple.Environment;
import net.beaconcontroller.maple.InconsistentPolicyException;
import net.beaconcontroller.maple.Policy;
import net.beaconcontroller.maple.Route;
import net.beaconcontroller.topology.SwitchPort;

/**
 * Maple's algorithmic core for one policy: the trace tree and its compiled flow tables. A packet the tree does not
 * know runs the policy; the trace is merged into the tree and the new rules come back with the route. Environment
 * changes invalidate the decisions that depend on them and give back the rule deletions (and barrier changes).
 *
 * <p>Not thread-safe: one thread owns an engine (the runtime's, like a switch's I/O thread in Beacon).
 */
final class MapleEngine {
    private final Environment network;
    private final TraceTree tree = new TraceTree();
    private final FlowCompiler compiler;
    private Policy policy;

    /** What became of a packet: its route and the flow changes that cache it (empty on a hit). */
    record Decision(Route route, List<FlowChange> changes) {
    }

    /**
     * @param minPriority lowest priority of a compiled rule (0..65535)
     * @param maxPriority highest
     */
    MapleEngine(Policy policy, Environment network, int minPriority, int maxPriority) {
        this.policy = policy;
        this.network = network;
        this.compiler = new FlowCompiler(new Priorities(minPriority, maxPriority));
    }

    /** The cached route for a packet, or null on a miss. */
    Route lookup(Header h) {
        return tree.lookup(h);
    }

    /**
     * The route for a packet: from the tree, or from the policy, whose trace then joins the tree.
     *
     * @throws InconsistentPolicyException when the policy contradicts its earlier traces
     * @throws Priorities.ExhaustedException when the tree would no longer fit the priority band (the trace is not
     *                                       kept)
     */
    Decision decide(Header h) {
        Route cached = tree.lookup(h);
        if (cached != null) {
            return new Decision(cached, List.of());
        }
        Trace trace = Tracer.trace(policy, h, network);
        Node fresh = tree.augment(trace);
        if (fresh == null) {
            return new Decision(trace.route(), List.of());
        }
        try {
            return new Decision(trace.route(), compiler.augmented(fresh));
        } catch (Priorities.ExhaustedException e) {
            compiler.removed(tree.remove(List.of(leafOf(fresh))));
            throw e;
        }
    }

    private static Node.Leaf leafOf(Node chain) {
        Node n = chain;
        while (!(n instanceof Node.Leaf)) {
            n = n instanceof Node.Read r ? r.children.values().iterator().next()
                    : ((Node.Branch) n).yes != null ? ((Node.Branch) n).yes : ((Node.Branch) n).no;
        }
        return (Node.Leaf) n;
    }

    /** A host appeared, moved or left. */
    List<FlowChange> hostChanged(long mac) {
        return compiler.removed(tree.invalidateHost(mac));
    }

    /** A port or the link on it went down or came up. */
    List<FlowChange> portChanged(SwitchPort port) {
        return compiler.removed(tree.invalidatePort(port));
    }

    /** A link appeared: every decision that read a path may now have a shorter one. */
    List<FlowChange> topologyChanged() {
        return compiler.removed(tree.invalidateTopology());
    }

    /** A new policy: every decision and rule of the old one goes. */
    List<FlowChange> replacePolicy(Policy next) {
        policy = next;
        return compiler.removed(tree.clear());
    }

    /** A switch connected: the rules it needs for what the tree already knows. */
    List<FlowChange> switchAdded(long dpid) {
        return compiler.switchAdded(dpid, tree.root());
    }

    void switchRemoved(long dpid) {
        compiler.switchRemoved(dpid);
    }

    Map<Long, List<Rule>> tables() {
        return compiler.tables();
    }

    Node root() {
        return tree.root();
    }

    int leafCount() {
        return tree.leafCount();
    }
}
