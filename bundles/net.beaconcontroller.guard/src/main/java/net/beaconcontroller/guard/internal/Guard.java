package net.beaconcontroller.guard.internal;

import java.util.function.LongSupplier;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
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
import net.beaconcontroller.guard.GuardBudgets;
import net.beaconcontroller.guard.GuardCounters;
import net.beaconcontroller.guard.IGuard;
import net.beaconcontroller.guard.internal.SwitchGuard.Admit;
import net.beaconcontroller.guard.internal.SwitchGuard.Block;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.topology.ITopology;

/**
 * The first listener of the PACKET_IN pipeline: a PACKET_IN within its switch's and its port's budgets goes on to
 * topology, the device manager, the firewall and routing; one beyond them is dropped here (the chain stops) and its
 * port blocked at the switch for a while (see {@link SwitchGuard}, {@link GuardFlows}). LLDP is never judged: topology
 * needs every probe, and the LLDP flow keeps probes of a blocked port coming.
 *
 * <p>State: per switch, a {@link SwitchGuard} that only the switch's I/O thread touches; the counters, which /metrics
 * reads, in {@link Counters}. In a cluster only a switch's master receives its PACKET_INs, so the master guards it;
 * its drop flows are written as any application's, and end by their hard timeout whoever masters the switch then.
 */
@Component(configurationPid = Guard.NAME, configurationPolicy = ConfigurationPolicy.REQUIRE, immediate = true,
        service = {IGuard.class, IOFMessageListener.class, IFlowReconciler.class})
@Designate(ocd = Guard.Config.class)
@BeaconListener(types = OFType.PACKET_IN, before = {"topology", "devicemanager", "firewall", "routing",
    "learningswitch", "hub"})
public final class Guard implements IGuard, IOFMessageListener, IFlowReconciler {
    static final String NAME = "guard";
    private static final Logger log = LoggerFactory.getLogger(Guard.class);

    @ObjectClassDefinition(name = "PACKET_IN guard", description = "A budget of PACKET_INs per second per switch and"
            + " per port; a port over it is blocked at the switch for a while by a drop flow. See docs/guard.md.")
    public @interface Config {
        @AttributeDefinition(description = "Judge PACKET_INs. Off: every PACKET_IN goes on to the other applications"
                + " (the cbench benchmarks turn it off: their fake switches send everything on one port).")
        boolean enabled() default true;

        @AttributeDefinition(min = "1", max = "1000000000", description = "PACKET_INs per second one port may send"
                + " on average: about 10 times what a busy server's new connections need.")
        int portRate() default 2000;

        @AttributeDefinition(min = "1", max = "1000000000", description = "PACKET_INs one port may send at once after"
                + " a quiet spell (the size of its token bucket): 2 s of portRate, for a host's start-up burst.")
        int portBurst() default 4000;

        @AttributeDefinition(min = "1", max = "1000000000", description = "PACKET_INs per second one switch may send"
                + " on average, its ports together: ten ports at their full budget; protects the switch's own control"
                + " path and flow table, far below what Beacon's pipeline takes.")
        int switchRate() default 20000;

        @AttributeDefinition(min = "1", max = "1000000000", description = "PACKET_INs one switch may send at once"
                + " (its bucket's size): 2 s of switchRate.")
        int switchBurst() default 40000;

        @AttributeDefinition(min = "1", max = "3600", description = "Seconds a port over its budget stays blocked (the"
                + " drop flow's hard timeout); blocked again once the burst its bucket refilled meanwhile is spent.")
        int dropSeconds() default 2;

        @AttributeDefinition(min = "2", max = "65534", description = "Priority of the drop flow; the LLDP flow beside"
                + " it gets one more. Below every other application's flows, so that only the port's new flows are"
                + " dropped, and above 1, the cluster's marker flows.")
        int priority() default 2;
    }

    private final IBeaconProvider beacon;
    private final ITopology topology;
    private final boolean enabled;
    private final GuardBudgets settings;
    private final Budgets budgets;
    private final GuardFlows flows;
    private final LongSupplier nanoClock;
    private final Counters counters = new Counters();
    /** A key of this instance's: a new configuration (which restarts the component) starts with fresh buckets. */
    private final SwitchLocal<SwitchGuard> state = new SwitchLocal<>("guard", null);

    @Activate
    public Guard(@Reference IBeaconProvider beacon, @Reference ITopology topology, Config config) {
        this(beacon, topology, config, System::nanoTime);
    }

    Guard(IBeaconProvider beacon, ITopology topology, Config config, LongSupplier nanoClock) {
        this.beacon = beacon;
        this.topology = topology;
        this.enabled = config.enabled();
        this.settings = new GuardBudgets(config.portRate(), config.portBurst(), config.switchRate(),
                config.switchBurst(), config.dropSeconds(), config.priority());
        this.budgets = new Budgets(settings);
        this.flows = new GuardFlows(config.dropSeconds(), config.priority());
        this.nanoClock = nanoClock;
        if (enabled) {
            log.info("PACKET_IN guard on: {}/s per port (burst {}), {}/s per switch (burst {}), ports over budget"
                    + " blocked for {} s", settings.portRate(), settings.portBurst(), settings.switchRate(),
                    settings.switchBurst(), settings.dropSeconds());
        } else {
            log.info("PACKET_IN guard off (guard.enabled=false)");
        }
    }

    @Deactivate
    void deactivate() {
        beacon.clearLocal(state);
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
        if (!enabled || !(msg instanceof OFPacketIn pi) || ctx.frame().isEthernet() && ctx.frame().isLldp()) {
            return Command.CONTINUE;
        }
        var guard = sw.getLocal(state);
        if (guard == null) {
            long dpid = sw.getId();
            guard = new SwitchGuard(budgets, port -> !topology.isEdgePort(dpid, port), port -> counters.of(dpid, port),
                    nanoClock.getAsLong());
            sw.setLocal(state, guard);
        }
        var verdict = guard.admit(pi.inPort(), nanoClock.getAsLong());
        if (verdict == Admit.PASS) {
            return Command.CONTINUE;
        }
        if (verdict instanceof Block b) {
            sw.write(flows.block(b.port()));
            if (b.episodeStart()) {
                logEpisode(sw, b);
            }
        }
        return Command.STOP;
    }

    private void logEpisode(IOFSwitch sw, Block b) {
        if (b.cause() == SwitchGuard.Cause.PORT) {
            log.warn("guard: switch {} port {}: {} PACKET_IN/s, over its budget of {}/s: its new flows are dropped at"
                    + " the switch for {} s at a time while it stays over", sw.getStringId(), b.port(), b.rate(),
                    settings.portRate(), settings.dropSeconds());
        } else {
            log.warn("guard: switch {} over its budget of {} PACKET_IN/s: port {}, the busiest ({} PACKET_IN/s), has"
                    + " its new flows dropped at the switch for {} s at a time while the switch stays over",
                    sw.getStringId(), settings.switchRate(), b.port(), b.rate(), settings.dropSeconds());
        }
    }

    @Override
    public boolean isEnabled() {
        return enabled;
    }

    @Override
    public GuardBudgets getBudgets() {
        return settings;
    }

    @Override
    public GuardCounters getCounters() {
        return counters.snapshot();
    }

    @Override
    public FlowOwner owner() {
        return FlowOwner.GUARD;
    }

    /**
     * Kept: a guard flow found after a restart or a fail-over protects the controller exactly when it is busiest
     * (learning the network again), and its hard timeout ends it within {@code dropSeconds} anyway. One without a hard
     * timeout is none the guard ever wrote.
     */
    @Override
    public FlowVerdict judge(IOFSwitch sw, OFFlowStatsEntry flow) {
        return flow.hardTimeout() > 0 ? FlowVerdict.WANTED : FlowVerdict.STALE;
    }
}
