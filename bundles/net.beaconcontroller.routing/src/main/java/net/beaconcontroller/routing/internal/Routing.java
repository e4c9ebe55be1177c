package net.beaconcontroller.routing.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.BeaconListener;
import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.FlowVerdict;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IFlowReconciler;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.SwitchLocal;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceListener;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.packet.Arp;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.routing.Hop;
import net.beaconcontroller.routing.IRouteListener;
import net.beaconcontroller.routing.IRouting;
import net.beaconcontroller.routing.IRoutingEngine;
import net.beaconcontroller.routing.RouteChanges;
import net.beaconcontroller.routing.RoutingCounters;
import net.beaconcontroller.routing.internal.Counters.Event;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.ITopologyListener;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * Shortest-path routing: a frame to a known host gets flows on every switch of the route the engine gives; anything
 * else is flooded along the topology's spanning tree, never in a loop.
 *
 * <p>Its flows that no longer fit (a link went down, paths changed, a host moved or was forgotten at a link end) are
 * deleted by {@link FlowCleanup}.
 */
@Component(configurationPid = Routing.NAME, configurationPolicy = ConfigurationPolicy.REQUIRE,
        service = {IOFMessageListener.class, ITopologyListener.class, IRouteListener.class, IFlowReconciler.class,
            IRouting.class, IDeviceListener.class})
@Designate(ocd = Routing.Config.class)
@BeaconListener(types = OFType.PACKET_IN, after = {"topology", "devicemanager"})
public final class Routing implements IOFMessageListener, ITopologyListener, IRouteListener, IFlowReconciler,
        IRouting, IDeviceListener {
    /** Its listener name and the prefix of its keys. */
    public static final String NAME = "routing";
    private static final Logger log = LoggerFactory.getLogger(Routing.class);
    private static final SwitchLocal<FloodGuard> GUARD = new SwitchLocal<>("routing.floodGuard", FloodGuard::new);
    private static final SwitchLocal<Bounces> BOUNCES = new SwitchLocal<>("routing.bounces", Bounces::new);

    @ObjectClassDefinition(name = "Routing", description = "Shortest-path routing between the hosts the device"
            + " manager knows, over the links the topology sees; loop-free flooding for everything else.")
    public @interface Config {
        @AttributeDefinition(description = "What the installed flows match. EXACT: the frame's 10-tuple with each"
                + " hop's in port, as Beacon does: one flow per connection and switch, every new connection comes to"
                + " the controller, per-connection statistics. DST_MAC: destination MAC and VLAN only: one flow per"
                + " host and switch shared by all sources, far fewer PACKET_INs and table entries, but the device"
                + " manager then sees a host's traffic only when it reaches the controller.")
        Match match() default Match.EXACT;

        @AttributeDefinition(min = "0", max = "65535", description = "Idle timeout (seconds) of the flows it"
                + " installs; 0 = none.")
        int idleTimeout() default 5;

        @AttributeDefinition(min = "0", max = "65535", description = "Hard timeout (seconds) of the flows it"
                + " installs; 0 = none.")
        int hardTimeout() default 0;

        @AttributeDefinition(min = "0", max = "65535", description = "Priority of the flows it installs.")
        int priority() default OFFlowMod.DEFAULT_PRIORITY;

        @AttributeDefinition(description = "Answer ARP requests for a known host's IPv4 address from the controller"
                + " instead of flooding them.")
        boolean proxyArp() default true;

        enum Match { EXACT, DST_MAC }
    }

    private final IBeaconProvider beacon;
    private final ITopology topology;
    private final IDeviceManager devices;
    private final AtomicReference<IRoutingEngine> engine = new AtomicReference<>();
    private final AtomicBoolean toldNoEngine = new AtomicBoolean();
    private final Counters counters = new Counters();
    private final FlowCleanup cleanup;
    /** Flows kept at reconciliation for want of their host, judged again when it is learnt: at most 100,000, 60 s. */
    private final AwaitingHost awaiting = new AwaitingHost(100_000, TimeUnit.SECONDS.toNanos(60));
    /** Replaced whole by {@link #modified}: a PACKET_IN never sees half a change. */
    private volatile Config config;
    private volatile RouteFlows flows;

    @Activate
    public Routing(@Reference IBeaconProvider beacon, @Reference ITopology topology, @Reference IDeviceManager devices,
            Config config) {
        this.beacon = beacon;
        this.topology = topology;
        this.devices = devices;
        cleanup = new FlowCleanup(beacon, topology, devices);
        modified(config);
    }

    @Deactivate
    void deactivate() {
        beacon.clearLocal(GUARD);
        beacon.clearLocal(BOUNCES);
    }

    @Modified
    void modified(Config next) {
        flows = RouteFlows.of(next);
        config = next;
    }

    /** The engine can be stopped and another started at runtime; without one, routing floods. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    public void bindEngine(IRoutingEngine next) {
        engine.set(next);
        toldNoEngine.set(false);
        log.info("Routing with {}", next);
    }

    public void unbindEngine(IRoutingEngine gone) {
        if (engine.compareAndSet(gone, null)) {
            log.info("Routing engine {} gone: flooding until another starts", gone);
        }
    }

    public Counters counters() {
        return counters;
    }

    @Override
    public RoutingCounters getCounters() {
        return counters.snapshot();
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
        if (!(msg instanceof OFPacketIn pi) || !ctx.frame().isEthernet()) {
            return Command.CONTINUE;
        }
        var frame = ctx.frame();
        if (frame.isArp() && config.proxyArp() && answerArp(sw, pi, frame)) {
            return Command.STOP;
        }
        Device dst = frame.isMulticast() ? null : ctx.get(IDeviceManager.DST_DEVICE);
        if (dst == null || !route(sw, pi, frame, dst)) {
            flood(sw, pi);
        }
        return Command.STOP;
    }

    /** @return false when the packet could not be routed and should be flooded */
    private boolean route(IOFSwitch sw, OFPacketIn pi, Frame frame, Device dst) {
        var e = engine.get();
        if (e == null) {
            counters.add(Event.NO_ENGINE);
            if (toldNoEngine.compareAndSet(false, true)) {
                log.warn("No routing engine: flooding frames to known hosts too until one starts");
            }
            return false;
        }
        if (!OFPort.isPhysical(pi.inPort())) {
            return false;
        }
        if (topology.inSameBroadcastDomain(new SwitchPort(sw.getId(), pi.inPort()), dst.attachment())) {
            // A bridge that does not know the destination floods the frame to every port of the domain, the host's
            // included; sent back into the domain it would come round again.
            counters.add(Event.DROPPED_LOOP_COPY);
            return true;
        }
        List<Hop> route = e.getRoute(new SwitchPort(sw.getId(), pi.inPort()), dst.attachment());
        if (route.isEmpty()) {
            counters.add(Event.NO_ROUTE);
            return false;
        }
        if (route.size() > 1 && route.get(0).inPort() == route.get(0).outPort()) {
            bounced(sw, pi.inPort(), dst);
            return true;
        }
        var planned = flows.forRoute(route, frame);
        var switches = beacon.getSwitches();
        for (var flow : planned) {
            if (flow.dpid() != sw.getId() && !switches.containsKey(flow.dpid())) {
                log.debug("Switch {} of the route to {} is not connected: flooding", flow.dpid(), dst);
                return false;
            }
        }
        for (var flow : planned) {
            if (flow.dpid() == sw.getId()) {
                sw.write(flow.flowMod());
            } else {
                // Sent at once rather than with the batch, so that the downstream switches have their flows before
                // the first hop forwards the packet.
                var next = switches.get(flow.dpid());
                next.write(flow.flowMod());
                next.flush();
            }
        }
        var actions = RouteFlows.actions(route.get(0));
        if (!actions.isEmpty()) {
            sw.write(OFPacketOut.of(pi, actions));
        }
        counters.add(Event.ROUTED);
        return true;
    }

    /** See {@link Bounces}: the packet is dropped, and the flows towards its destination go from every switch. */
    private void bounced(IOFSwitch sw, int inPort, Device dst) {
        counters.add(Event.DROPPED_BOUNCE);
        if (!sw.getLocal(BOUNCES).cleanUp(dst.mac(), dst.vlan(), System.nanoTime())) {
            return;
        }
        log.info("switch {}: a packet to {} came in on port {}, by which its route leaves: a switch upstream forwards"
                + " by a flow that no longer fits (did the host move?); the flows towards it are deleted everywhere",
                sw.getStringId(), dst, inPort);
        var delete = OFFlowMod.builder().command(OFFlowMod.Command.DELETE)
                .match(RouteFlows.destinationMatch(dst.mac(), dst.vlan())).build();
        for (var s : beacon.getSwitches().values()) {
            s.write(delete);
            s.flush();
        }
    }

    /**
     * Out of every broadcast port of the switch but the in port, if the packet came in on an edge port or the
     * spanning tree and was not flooded here moments before (see {@link FloodGuard}); otherwise it is a copy that went
     * round a loop, and is dropped. So is one that came in at a port of a broadcast domain that does not carry its
     * broadcasts: the unmanaged bridges flood every frame to all the domain's ports, and the copy at the port that
     * does is the one flooded.
     */
    private void flood(IOFSwitch sw, OFPacketIn pi) {
        long dpid = sw.getId();
        int inPort = pi.inPort();
        var ports = topology.getBroadcastPorts(dpid);
        if (!ports.contains(inPort) && (!topology.isEdgePort(dpid, inPort)
                || topology.isBroadcastDomainPort(dpid, inPort))) {
            counters.add(Event.DROPPED_LOOP_COPY);
            return;
        }
        if (!sw.getLocal(GUARD).firstTime(pi.frame(), pi.totalLength(), inPort, System.nanoTime())) {
            counters.add(Event.DROPPED_REPEAT);
            return;
        }
        var actions = new ArrayList<OFAction>(ports.size());
        for (int port : ports) {
            if (port != inPort) {
                actions.add(new OFActionOutput(port, 0));
            }
        }
        counters.add(Event.FLOODED);
        if (!actions.isEmpty()) {
            sw.write(OFPacketOut.of(pi, actions));
        }
    }

    /** @return whether the request was answered */
    private boolean answerArp(IOFSwitch sw, OFPacketIn pi, Frame frame) {
        int target = frame.arpTargetIp();
        if (frame.arpOpcode() != Arp.REQUEST || target == frame.arpSenderIp()) {
            // Replies go to their host; gratuitous ARP announces a host to everyone.
            return false;
        }
        Device host = null;
        for (var d : devices.getDevicesByIpv4(target)) {
            if (d.vlan() == frame.vlanId() && d.mac() != frame.arpSenderMac()) {
                host = d;
            }
        }
        if (host == null) {
            return false;
        }
        var reply = ProxyArp.reply(frame, host.mac(), target);
        sw.write(OFPacketOut.unbuffered(0, OFPort.NONE, List.of(new OFActionOutput(pi.inPort(), 0)),
                ByteBuffer.wrap(reply)));
        counters.add(Event.PROXY_ARP_REPLY);
        return true;
    }

    @Override
    public FlowOwner owner() {
        return FlowOwner.ROUTING;
    }

    /**
     * See {@link RouteAudit}: what still has to be learnt after a restart never gets a flow deleted. A flow towards a
     * host not known yet waits for the host (see {@link AwaitingHost}).
     */
    @Override
    public FlowVerdict judge(IOFSwitch sw, OFFlowStatsEntry flow) {
        var verdict = audit(sw, flow);
        var match = flow.match();
        if (verdict == FlowVerdict.UNSURE && !match.isWildcarded(OFMatch.OFPFW_DL_DST)
                && !match.isWildcarded(OFMatch.OFPFW_DL_VLAN)
                && devices.getDevice(match.dlDst(), match.dlVlan()).isEmpty()) {
            awaiting.add(match.dlDst(), match.dlVlan(), sw.getId(), flow, System.nanoTime());
        }
        return verdict;
    }

    private FlowVerdict audit(IOFSwitch sw, OFFlowStatsEntry flow) {
        return RouteAudit.judge(sw, flow, devices, engine.get(), at -> topology.isEdgePort(at.dpid(), at.port())
                && !topology.isQuarantined(at));
    }

    @Override
    public void deviceAdded(Device device) {
        judgeAgain(device);
    }

    @Override
    public void deviceMoved(Device before, Device now) {
        cleanup.hostLeft(now, flows.granularity());
        judgeAgain(now);
    }

    @Override
    public void deviceIpChanged(Device before, Device now) {
    }

    @Override
    public void deviceRemoved(Device device) {
        cleanup.hostRemoved(device, flows.granularity());
    }

    /**
     * The host's flows kept at reconciliation, judged now that it is known: those that send its traffic where it no
     * longer is go (a host that moved while Beacon was down is reachable as soon as it speaks). As each switch's
     * master, on the thread that learnt the host.
     */
    private void judgeAgain(Device host) {
        var waiting = awaiting.take(host.mac(), host.vlan(), System.nanoTime());
        if (waiting.isEmpty()) {
            return;
        }
        var switches = beacon.getSwitches();
        var touched = new HashSet<IOFSwitch>();
        int deleted = 0;
        for (var f : waiting) {
            var sw = switches.get(f.dpid());
            if (sw != null && sw.isMaster() && audit(sw, f.entry()) == FlowVerdict.STALE) {
                sw.write(OFFlowMod.builder().command(OFFlowMod.Command.DELETE_STRICT).match(f.entry().match())
                        .priority(f.entry().priority()).outPort(OFPort.NONE).build());
                touched.add(sw);
                deleted++;
            }
        }
        if (deleted > 0) {
            log.info("host {} known again: {} of the flows towards it kept at reconciliation deleted (it moved while"
                    + " the controller was away)", host, deleted);
        }
        touched.forEach(IOFSwitch::flush);
    }

    @Override
    public void linkAdded(Link link) {
        // Nothing to do here: the engine reports the pairs whose paths got shorter, and routesChanged removes them.
    }

    @Override
    public void linkRemoved(Link link) {
        cleanup.linkRemoved(link);
    }

    @Override
    public void routesChanged(IRoutingEngine changed, RouteChanges changes) {
        if (changed == engine.get()) {
            cleanup.routesChanged(changes);
        }
    }
}
