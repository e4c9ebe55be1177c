package net.beaconcontroller.maple.internal;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.FlowVerdict;
import net.beaconcontroller.maple.Environment;
import net.beaconcontroller.maple.InconsistentPolicyException;
import net.beaconcontroller.maple.Policy;
import net.beaconcontroller.maple.Route;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.SwitchPort;
import net.beaconcontroller.util.Dpids;

/**
 * Maple's runtime for one policy: a packet that reached the controller is looked up in the trace tree (a hit is sent
 * on with the cached route), a miss runs the policy and the new rules go to the switches, last hop first, before the
 * packet is sent on; environment changes delete exactly the rules of the decisions that read what changed.
 *
 * <p>Owned by one thread (the runtime's loop): nothing here is synchronized.
 */
final class PolicyRuntime {
    /** The band of priorities Maple's rules use: above routing's default (32768), so a policy wins over its flows. */
    static final int MIN_PRIORITY = 40_000;
    static final int MAX_PRIORITY = 60_000;
    /** How long flows an earlier runtime left stay before they are deleted (unless a new rule took their place). */
    static final long LEFTOVER_GRACE_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final long WARN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final Logger log = LoggerFactory.getLogger(PolicyRuntime.class);

    /** Where the runtime's messages go. */
    interface SwitchWriter {
        /** Sends {@code msgs} to switch {@code dpid}, in order; false when it is not connected (or not ours). */
        boolean write(long dpid, List<OFMessage> msgs);
    }

    enum Event {
        /** A packet the tree knew. */
        HIT,
        /** A packet the policy was asked about. */
        MISS,
        /** Dropped: it came in by a link and its sender is not known, so where it entered is not known. */
        NO_INGRESS,
        /** Dropped: the policy contradicted its earlier answers (or an environment change is still on its way). */
        INCONSISTENT,
        /** Dropped: the policy threw, or its rules no longer fit the priority band. */
        POLICY_FAILED,
        /** A copy of a flooded packet that came back by a port off the spanning tree: dropped. */
        FLOOD_COPY,
        /** A rule something else deleted from a switch, written again. */
        RESTORED,
        FLOW_MODS
    }

    private record Leftover(long dpid, OFMatch match, int priority, long due) {
    }

    private final MapleEngine engine;
    private final Environment network;
    private final ITopology topology;
    private final SwitchWriter writer;
    private final long cookie;
    private final Installed installed = new Installed();
    /** In the order they were judged, so by due time. */
    private final ArrayDeque<Leftover> leftovers = new ArrayDeque<>();
    private final Map<Event, Long> counts = new EnumMap<>(Event.class);
    private final Frame view = new Frame();
    private Policy policy;
    private long lastWarning = System.nanoTime() - WARN_EVERY_NANOS;

    /** @param epoch this runtime's activation, 48 bits, in the data of its flows' cookie */
    PolicyRuntime(Policy policy, Environment network, ITopology topology, SwitchWriter writer, long epoch) {
        this.policy = policy;
        this.engine = new MapleEngine(policy, network, MIN_PRIORITY, MAX_PRIORITY);
        this.network = network;
        this.topology = topology;
        this.writer = writer;
        this.cookie = FlowOwner.MAPLE.cookie(epoch);
    }

    /**
     * A packet switch {@code dpid} sent the controller. Where it entered the network: the port it came in by if that
     * is an edge port, else where its sender is attached (it crossed switches whose rules sent it on).
     */
    void packetIn(long dpid, int inPort, long bufferId, byte[] frame) {
        view.wrap(ByteBuffer.wrap(frame));
        SwitchPort ingress = OFPort.isPhysical(inPort) && topology.isEdgePort(dpid, inPort)
                ? new SwitchPort(dpid, inPort) : network.hostLocation(view.dlSrc()).orElse(null);
        if (ingress == null) {
            count(Event.NO_INGRESS);
            return;
        }
        Header header = Header.of(ingress, OFMatch.fromFrame(view, inPort));
        Route cached = engine.lookup(header);
        if (cached != null) {
            count(Event.HIT);
            sendOn(dpid, inPort, bufferId, frame, cached);
            return;
        }
        MapleEngine.Decision d;
        try {
            d = engine.decide(header);
        } catch (InconsistentPolicyException e) {
            count(Event.INCONSISTENT);
            warn("policy {} is inconsistent, packet dropped: {}", policy, e.getMessage());
            return;
        } catch (RuntimeException e) {
            count(Event.POLICY_FAILED);
            warn("policy {} failed on a packet from {}, dropped: {}", policy, ingress, e.toString());
            return;
        }
        count(Event.MISS);
        send(d.changes());
        sendOn(dpid, inPort, bufferId, frame, d.route());
    }

    /** A host appeared, moved or left. */
    void hostChanged(long mac) {
        send(engine.hostChanged(mac));
    }

    /** A port went down or up, or a link on it went away. */
    void portChanged(SwitchPort port) {
        send(engine.portChanged(port));
    }

    /** Paths changed (a link appeared, the routing engine changed). */
    void topologyChanged() {
        send(engine.topologyChanged());
    }

    /** Another policy: every rule of the old one goes. */
    void policyChanged(Policy next) {
        policy = next;
        send(engine.replacePolicy(next));
    }

    /**
     * A switch became active: a new one gets the rules of what the tree knows; one that reconnects gets again every
     * rule it should hold (reconciliation has deleted those that went meanwhile; ADD replaces an identical flow).
     */
    void switchAdded(long dpid) {
        var fresh = engine.switchAdded(dpid);
        if (fresh.isEmpty()) {
            writer.write(dpid, new ArrayList<>(installed.adds(dpid, cookie)));
        } else {
            send(fresh);
        }
    }

    /**
     * A switch reports that one of this runtime's rules was deleted. If the runtime did not delete it itself (it still
     * wants it there), something else did, and the rule is written again: without it the switch's table is no longer
     * what the tree was compiled to (a lost barrier would even let packets past a test).
     */
    void flowRemoved(long dpid, OFMatch match, int priority, long flowCookie) {
        OFFlowMod add = flowCookie == cookie ? installed.add(dpid, match, priority, cookie) : null;
        if (add != null) {
            count(Event.RESTORED);
            writer.write(dpid, List.of(add));
        }
    }

    /**
     * One of Maple's flows found on a switch at reconciliation. This runtime's own: wanted if it should be there as
     * it is, else stale. An earlier runtime's (another epoch): unsure, and deleted after a grace period unless this
     * runtime has put a rule of its own at that match and priority by then (the ADD replaced it).
     */
    FlowVerdict judge(long dpid, OFFlowStatsEntry flow, long now) {
        if (flow.cookie() != cookie) {
            leftovers.add(new Leftover(dpid, flow.match(), flow.priority(), now + LEFTOVER_GRACE_NANOS));
            return FlowVerdict.UNSURE;
        }
        return installed.has(dpid, flow.match(), flow.priority(), flow.actions()) ? FlowVerdict.WANTED
                : FlowVerdict.STALE;
    }

    /** Deletes the leftovers whose grace period has ended by {@code now}. */
    void tick(long now) {
        if (leftovers.isEmpty() || leftovers.peek().due() - now > 0) {
            return; // after every packet: nothing to allocate
        }
        var touched = new LinkedHashMap<Long, List<OFMessage>>();
        while (!leftovers.isEmpty() && leftovers.peek().due() - now <= 0) {
            var l = leftovers.poll();
            if (!installed.has(l.dpid(), l.match(), l.priority())) {
                touched.computeIfAbsent(l.dpid(), k -> new ArrayList<>()).add(deleteStrict(l));
            }
        }
        touched.forEach(writer::write);
    }

    /** Deletes every rule of this runtime and the leftovers still waiting: the runtime stops. */
    void close() {
        send(engine.replacePolicy(policy));
        leftovers.forEach(l -> writer.write(l.dpid(), List.of(deleteStrict(l))));
        leftovers.clear();
    }

    /** How often {@code e} happened. */
    long counted(Event e) {
        return counts.getOrDefault(e, 0L);
    }

    /** What {@code beacon:maple} prints. */
    String status() {
        var s = new StringBuilder();
        s.append("policy ").append(policy).append(": ").append(engine.leafCount()).append(" decisions cached\n");
        s.append("cookie 0x").append(Long.toHexString(cookie)).append(", priorities ").append(MIN_PRIORITY)
                .append("..").append(MAX_PRIORITY).append('\n');
        counts.forEach((e, n) -> s.append(e.name().toLowerCase(java.util.Locale.ROOT)).append(' ').append(n)
                .append('\n'));
        new TreeMap<>(installed.counts()).forEach((dpid, n) -> s.append("switch ").append(Dpids.toString(dpid))
                .append(": ").append(n).append(" rules\n"));
        if (!leftovers.isEmpty()) {
            s.append(leftovers.size()).append(" flows of an earlier run waiting for deletion\n");
        }
        return s.toString();
    }

    private void send(List<FlowChange> changes) {
        // In the compiler's order, each switch's share at once: a packet must never find a later switch of its
        // route without the rule an earlier one forwarded it by.
        for (FlowChange c : changes) {
            long dpid = c.rule().dpid();
            OFFlowMod mod = FlowMods.of(c, cookie);
            installed.apply(dpid, mod);
            writer.write(dpid, List.of(mod));
            count(Event.FLOW_MODS);
        }
    }

    /** The packet out of this switch as its route says; a drop, or to the controller (here already), sends nothing. */
    private void sendOn(long dpid, int inPort, long bufferId, byte[] frame, Route route) {
        var out = new ArrayList<OFAction>();
        if (route instanceof Route.Flood) {
            var ports = topology.getBroadcastPorts(dpid);
            if (!ports.contains(inPort) && (!topology.isEdgePort(dpid, inPort)
                    || topology.isBroadcastDomainPort(dpid, inPort))) {
                count(Event.FLOOD_COPY);
                return;
            }
            ports.stream().filter(p -> p != inPort).sorted().forEach(p -> out.add(OFActionOutput.to(p)));
        } else if (route instanceof Route.Forward f && f.hopAt(dpid) != null) {
            f.hopAt(dpid).outPorts().stream().filter(p -> p != inPort).forEach(p -> out.add(OFActionOutput.to(p)));
        }
        if (out.isEmpty()) {
            return;
        }
        writer.write(dpid, List.of(bufferId == OFMessage.NO_BUFFER
                ? OFPacketOut.unbuffered(0, inPort, out, ByteBuffer.wrap(frame))
                : OFPacketOut.buffered(0, bufferId, inPort, out)));
    }

    private OFFlowMod deleteStrict(Leftover l) {
        return OFFlowMod.builder().command(OFFlowMod.Command.DELETE_STRICT).match(l.match()).priority(l.priority())
                .outPort(OFPort.NONE).build();
    }

    private void count(Event e) {
        counts.merge(e, 1L, Long::sum);
    }

    /** At most one line per 10 s: a broken policy is told, not repeated for every packet. */
    private void warn(String format, Object... args) {
        long now = System.nanoTime();
        if (now - lastWarning >= WARN_EVERY_NANOS) {
            lastWarning = now;
            log.warn(format, args);
        }
    }
}
