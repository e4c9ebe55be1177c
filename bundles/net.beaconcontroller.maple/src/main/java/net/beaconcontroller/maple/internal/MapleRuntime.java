package net.beaconcontroller.maple.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
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
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceListener;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.maple.Policy;
import net.beaconcontroller.openflow.OFFlowRemoved;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFPortStatus;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.routing.IRouteListener;
import net.beaconcontroller.routing.IRoutingEngine;
import net.beaconcontroller.routing.RouteChanges;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.ITopologyListener;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * Maple's runtime in Beacon: active while some bundle publishes a {@link Policy} service (the highest ranked one is
 * run), idle otherwise. It sits in the PACKET_IN pipeline after the topology, the device manager and the filters,
 * before routing: while it runs it decides every packet and routing sees none (routing's own flows idle out); when
 * the last policy goes, it deletes its rules and routing forwards again.
 *
 * <p>Everything it learns goes to one thread ({@link Loop}) that owns the trace tree: packets from the I/O threads,
 * host changes from the device manager, link and port changes from the topology and the routing engine, the
 * questions of reconciliation.
 */
@Component(service = {IOFMessageListener.class, IOFSwitchListener.class, IDeviceListener.class,
    ITopologyListener.class, IRouteListener.class, IFlowReconciler.class, MapleRuntime.class},
        property = {"osgi.command.scope=beacon", "osgi.command.function=maple"})
@BeaconListener(types = {OFType.PACKET_IN, OFType.PORT_STATUS, OFType.FLOW_REMOVED},
        after = {"guard", "topology", "devicemanager", "firewall", "acl"},
        before = {"routing", "learningswitch", "hub"})
public final class MapleRuntime implements IOFMessageListener, IOFSwitchListener, IDeviceListener, ITopologyListener,
        IRouteListener, IFlowReconciler {
    /** Its listener name. */
    public static final String NAME = "maple";
    private static final Logger log = LoggerFactory.getLogger(MapleRuntime.class);
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(5);

    private final IBeaconProvider beacon;
    private final ITopology topology;
    private final CoreNetwork network;
    private final long epoch = System.currentTimeMillis() & FlowOwner.DATA_MASK;
    private final AtomicReference<IRoutingEngine> engine = new AtomicReference<>();
    private final AtomicReference<Policy> policy = new AtomicReference<>();
    private final Loop loop;
    /** Made on the loop when the first policy is bound (before the component's services are published). */
    private PolicyRuntime runtime;

    @Activate
    public MapleRuntime(@Reference IBeaconProvider beacon, @Reference ITopology topology,
            @Reference IDeviceManager devices) {
        this.beacon = beacon;
        this.topology = topology;
        this.network = new CoreNetwork(devices, engine::get);
        loop = new Loop("maple", () -> {
            if (runtime != null) {
                runtime.tick(System.nanoTime());
            }
        });
    }

    @Deactivate
    void deactivate() {
        loop.close(() -> onRuntime(PolicyRuntime::close));
        log.info("Maple stopped: its rules are deleted");
    }

    /**
     * The policy to run: of several, the highest ranked. Bound before the component activates; a better one that
     * appears later replaces it, and every rule of the old one goes.
     */
    @Reference(cardinality = ReferenceCardinality.MANDATORY, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    public void bindPolicy(Policy next) {
        if (policy.getAndSet(next) == null) {
            loop.post(() -> runtime = new PolicyRuntime(next, network, topology, this::write, epoch));
        } else {
            post(r -> r.policyChanged(next));
        }
        log.info("Maple runs policy {}", next);
    }

    public void unbindPolicy(Policy gone) {
        // The replacement, if any, was bound first; without one the component deactivates.
        policy.compareAndSet(gone, null);
    }

    /** Paths come from the routing engine; a new engine may give other paths. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    public void bindEngine(IRoutingEngine next) {
        engine.set(next);
        post(PolicyRuntime::topologyChanged);
    }

    public void unbindEngine(IRoutingEngine gone) {
        if (engine.compareAndSet(gone, null)) {
            post(PolicyRuntime::topologyChanged);
        }
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
        long dpid = sw.getId();
        if (msg instanceof OFPortStatus ps) {
            int port = ps.desc().portNo();
            if (OFPort.isPhysical(port)) {
                post(r -> r.portChanged(new SwitchPort(dpid, port)));
            }
            return Command.CONTINUE;
        }
        if (msg instanceof OFFlowRemoved removed) {
            if (removed.reason() == OFFlowRemoved.Reason.DELETE && FlowOwner.MAPLE.owns(removed.cookie())) {
                post(r -> r.flowRemoved(dpid, removed.match(), removed.priority(), removed.cookie()));
            }
            return Command.CONTINUE;
        }
        if (!(msg instanceof OFPacketIn pi) || !ctx.frame().isEthernet()) {
            return Command.CONTINUE;
        }
        int inPort = pi.inPort();
        long bufferId = pi.bufferId();
        byte[] frame = pi.frameBytes();
        loop.offerPacket(() -> onRuntime(r -> r.packetIn(dpid, inPort, bufferId, frame)));
        return Command.STOP;
    }

    @Override
    public void addedSwitch(IOFSwitch sw) {
        long dpid = sw.getId();
        post(r -> r.switchAdded(dpid));
    }

    /**
     * Nothing: the compiler keeps what the switch should hold, so the reconciliation of its reconnection keeps what
     * is still wanted and deletes the rest.
     */
    @Override
    public void removedSwitch(IOFSwitch sw) {
    }

    @Override
    public void deviceAdded(Device device) {
        hostChanged(device);
    }

    @Override
    public void deviceMoved(Device before, Device now) {
        hostChanged(now);
    }

    /** A policy sees hosts by MAC and location only. */
    @Override
    public void deviceIpChanged(Device before, Device now) {
    }

    @Override
    public void deviceRemoved(Device device) {
        hostChanged(device);
    }

    private void hostChanged(Device device) {
        long mac = device.mac();
        post(r -> r.hostChanged(mac));
    }

    /** Paths that may use the new link are dropped when the routing engine reports them ({@link #routesChanged}). */
    @Override
    public void linkAdded(Link link) {
    }

    @Override
    public void linkRemoved(Link link) {
        post(r -> {
            r.portChanged(link.src());
            r.portChanged(link.dst());
        });
    }

    /** Called once the engine answers with the new paths, so no decision is made again from the old ones. */
    @Override
    public void routesChanged(IRoutingEngine changed, RouteChanges changes) {
        if (changed == engine.get()) {
            post(PolicyRuntime::topologyChanged);
        }
    }

    @Override
    public FlowOwner owner() {
        return FlowOwner.MAPLE;
    }

    @Override
    public FlowVerdict judge(IOFSwitch sw, OFFlowStatsEntry flow) {
        long dpid = sw.getId();
        try {
            return loop.call(() -> runtime == null ? FlowVerdict.UNSURE
                    : runtime.judge(dpid, flow, System.nanoTime()), ASK_TIMEOUT);
        } catch (TimeoutException | ExecutionException e) {
            log.warn("switch {}: Maple's runtime could not judge a flow ({}); kept", sw.getStringId(), e.toString());
            return FlowVerdict.UNSURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return FlowVerdict.UNSURE;
        }
    }

    /** {@code beacon:maple}: the policy, what the runtime has done and the rules on each switch. */
    public String maple() throws TimeoutException, ExecutionException, InterruptedException {
        return loop.call(() -> runtime == null ? "no policy yet\n" : runtime.status(), ASK_TIMEOUT)
                + "packets dropped (queue full) " + loop.dropped();
    }

    /** Runs {@code action} on the loop once the runtime exists; before the first policy, nothing is cached yet. */
    private void post(Consumer<PolicyRuntime> action) {
        loop.post(() -> onRuntime(action));
    }

    /** On the loop. */
    private void onRuntime(Consumer<PolicyRuntime> action) {
        if (runtime != null) {
            action.accept(runtime);
        }
    }

    private boolean write(long dpid, List<OFMessage> msgs) {
        IOFSwitch sw = beacon.getSwitches().get(dpid);
        if (sw == null || !sw.isMaster() || msgs.isEmpty()) {
            return false;
        }
        sw.write(msgs);
        sw.flush();
        return true;
    }
}
