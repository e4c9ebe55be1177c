package net.beaconcontroller.firewall.internal;

import java.time.Duration;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.firewall.FirewallRule;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.openflow.statistics.OFFlowStatsReply;
import net.beaconcontroller.openflow.statistics.OFFlowStatsRequest;
import net.beaconcontroller.topology.ITopology;

/**
 * After a change of the rules or of the on/off state: removes from one switch the flows whose verdict the change
 * reversed, so traffic already flowing is judged again within a switch round trip. OpenFlow 1.0 deletes by match,
 * not by cookie, so the switch's table is read and the flows concerned deleted one by one (strict, by match and
 * priority): nothing else on the switch is touched.
 *
 * <p>Judged are the firewall's own drop flows and the forwarding flows of routing and the learning switch that start
 * where packets enter the network (an edge port): those are the flows a firewall decision let be installed. A flow
 * that matches less than a whole packet (routing with {@code routing.match=DST_MAC}) cannot be judged as one packet
 * and is removed at every change while the firewall is on; the next packet comes back and is judged.
 */
final class FlowCleanup {
    private static final Logger log = LoggerFactory.getLogger(FlowCleanup.class);
    static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final int EXACT = OFMatch.OFPFW_IN_PORT | OFMatch.OFPFW_DL_SRC | OFMatch.OFPFW_DL_DST
            | OFMatch.OFPFW_DL_TYPE;

    private FlowCleanup() {
    }

    /**
     * Reads {@code sw}'s flows and deletes those {@link #stale} under the state current when the table arrives. The
     * request leaves from the switch's I/O thread, after every PACKET_IN it handled under the old state: the flows
     * those installed are in the table read.
     */
    static void run(IOFSwitch sw, Supplier<FirewallState> state, ITopology topology, Hits hits) {
        sw.execute(() -> sw.getStatistics(new OFStatsRequest(0, OFFlowStatsRequest.all()), TIMEOUT).whenComplete((replies, e) -> {
            if (e != null) {
                log.warn("firewall: could not read the flows of {} to remove those the change reversed ({}); they"
                        + " go when they idle out", sw.getStringId(), e.toString());
                return;
            }
            var now = state.get();
            int deleted = 0;
            for (var reply : replies) {
                if (!(reply.body() instanceof OFFlowStatsReply flows)) {
                    continue;
                }
                for (var f : flows.entries()) {
                    if (stale(sw.getId(), f, now, topology)) {
                        sw.write(OFFlowMod.builder().command(OFFlowMod.Command.DELETE_STRICT).match(f.match())
                                .priority(f.priority()).outPort(OFPort.NONE).build());
                        deleted++;
                    }
                }
            }
            if (deleted > 0) {
                sw.flush();
                hits.flowsDeleted(deleted);
                log.info("firewall: {} flow(s) on {} decided under the old rules deleted", deleted, sw.getStringId());
            }
        }));
    }

    /** Whether {@code f} on switch {@code dpid} was decided otherwise than {@code s} decides now. */
    static boolean stale(long dpid, OFFlowStatsEntry f, FirewallState s, ITopology topology) {
        int owner = FlowOwner.ownerId(f.cookie());
        if (owner == FlowOwner.FIREWALL.id()) {
            return !s.enabled() || s.decide(dpid, f.match()).allowed();
        }
        if (!s.enabled() || owner != FlowOwner.ROUTING.id() && owner != FlowOwner.LEARNING_SWITCH.id()) {
            return false;
        }
        var m = f.match();
        if (!isWholePacket(m)) {
            return true;
        }
        return topology.isEdgePort(dpid, m.inPort()) && !s.decide(dpid, m).allowed();
    }

    /**
     * Whether the match names every field a rule can look at. Open vSwitch reports the fields that do not apply to
     * the flow's dl_type or protocol as wildcarded, and rules never look at those.
     */
    static boolean isWholePacket(OFMatch m) {
        if ((m.wildcards() & EXACT) != 0) {
            return false;
        }
        if (m.dlType() != FirewallRule.IPV4) {
            return true;
        }
        if (m.nwSrcPrefixLength() != 32 || m.nwDstPrefixLength() != 32 || m.isWildcarded(OFMatch.OFPFW_NW_PROTO)) {
            return false;
        }
        return m.nwProto() != FirewallRule.TCP && m.nwProto() != FirewallRule.UDP
                || !m.isWildcarded(OFMatch.OFPFW_TP_SRC) && !m.isWildcarded(OFMatch.OFPFW_TP_DST);
    }
}
