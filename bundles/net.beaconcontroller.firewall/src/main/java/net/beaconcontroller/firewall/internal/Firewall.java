package net.beaconcontroller.firewall.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.core.BeaconListener;
import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.FlowVerdict;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IFlowReconciler;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.shared.SharedTable;
import net.beaconcontroller.core.shared.SharedTable.Change;
import net.beaconcontroller.core.shared.Sharing;
import net.beaconcontroller.firewall.FirewallCounters;
import net.beaconcontroller.firewall.FirewallRule;
import net.beaconcontroller.firewall.FirewallRules;
import net.beaconcontroller.firewall.IFirewall;
import net.beaconcontroller.firewall.internal.FirewallState.Module;
import net.beaconcontroller.firewall.internal.FirewallState.Stored;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.StateFiles;

/**
 * Floodlight's firewall in the PACKET_IN pipeline, after topology and the device manager (so hosts are learnt from
 * refused traffic too) and before forwarding. A packet is judged where it enters the network, on an edge port: what
 * arrives over an inter-switch link was judged at its first switch. A refused packet gets a drop flow as narrow as
 * the packet (owner {@link FlowOwner#FIREWALL}) and goes no further; an allowed one goes on to routing.
 *
 * <p>State: one immutable {@link FirewallState}, replaced whole under this object's lock, saved to the file before it
 * is used, read by PACKET_INs without a lock. In a cluster the members share the rules ({@code firewall.rules}) and
 * the module ({@code firewall.module}); each member removes the flows a change reversed on the switches it masters.
 */
@Component(configurationPid = Firewall.NAME, configurationPolicy = ConfigurationPolicy.REQUIRE, immediate = true,
        service = {IFirewall.class, IOFMessageListener.class, IFlowReconciler.class})
@Designate(ocd = Firewall.Config.class)
@BeaconListener(types = OFType.PACKET_IN, after = {"topology", "devicemanager"}, before = {"routing",
    "learningswitch"})
public final class Firewall implements IFirewall, IOFMessageListener, IFlowReconciler {
    static final String NAME = "firewall";
    private static final Logger log = LoggerFactory.getLogger(Firewall.class);

    @ObjectClassDefinition(name = "Firewall", description = "Floodlight's firewall (/wm/firewall/...): off until"
            + " enabled over REST; rules and the on/off state are kept in a file.")
    public @interface Config {
        @AttributeDefinition(description = "File the firewall's state and rules are kept in. Empty: firewall.txt in"
                + " the OSGi configuration area (the product's configuration directory), which -clean keeps.")
        String file() default "";

        @AttributeDefinition(min = "0", max = "65535", description = "Idle timeout (seconds) of the drop flow"
                + " installed for a refused packet (Floodlight: 5); 0 = none.")
        int idleTimeout() default 5;

        @AttributeDefinition(min = "0", max = "65535", description = "Priority of those drop flows.")
        int priority() default OFFlowMod.DEFAULT_PRIORITY;
    }

    /** The drop flows' settings. */
    record DropFlows(int idleTimeout, int priority) { }

    private final IBeaconProvider beacon;
    private final ITopology topology;
    private final RuleFile file;
    private final DropFlows drops;
    private final ISharedState sharing;
    private final SharedTable<Integer, Stored> sharedRules;
    private final SharedTable<String, Module> sharedModule;
    private final Hits hits = new Hits();
    /** Written only with this object's lock held, after the file. */
    private volatile FirewallState state;

    /** Joining or leaving a cluster restarts it (the shared state is a static reference). */
    @Activate
    public Firewall(@Reference IBeaconProvider beacon, @Reference ITopology topology,
            @Reference(cardinality = ReferenceCardinality.OPTIONAL, policyOption = ReferencePolicyOption.GREEDY)
            ISharedState cluster, BundleContext context, Config config) {
        this(beacon, topology, new RuleFile(path(config.file(), context)), cluster,
                new DropFlows(config.idleTimeout(), config.priority()));
    }

    /** With the cluster's shared state, or {@code null}. */
    Firewall(IBeaconProvider beacon, ITopology topology, RuleFile file, ISharedState cluster, DropFlows drops) {
        this.beacon = beacon;
        this.topology = topology;
        this.file = file;
        this.drops = drops;
        try {
            state = file.read();
        } catch (IOException e) {
            throw new SettingException(NAME + ".file", file.path().toString(), "a firewall file Beacon can read ("
                    + e.getMessage() + ")");
        }
        log.info("firewall {} with {} rule(s) from {}", state.enabled() ? "enabled" : "disabled",
                state.rules().size(), file.path());
        sharing = Sharing.of(cluster);
        sharedRules = SharedTable.open(cluster, SharedFirewall.RULES, SharedFirewall.RULE_KEYS,
                SharedFirewall.RULE_CODEC);
        sharedModule = SharedTable.open(cluster, SharedFirewall.MODULE, SharedFirewall.MODULE_KEYS,
                SharedFirewall.MODULE_CODEC);
        join();
        sharedRules.subscribe(this::sharedRule);
        sharedModule.subscribe(this::sharedModule);
        // Flows installed while it was not running (a bundle update, a restart) are judged now.
        cleanUp();
    }

    /** Offers this member's state to the cluster; where the cluster has another value, takes the cluster's. */
    private void join() {
        var mine = state;
        var module = sharedModule.setIfAbsent(SharedFirewall.MODULE_KEY, mine.module());
        var joined = mine.with(module);
        for (var k : mine.rules()) {
            var theirs = sharedRules.setIfAbsent(k.rule().id(), k);
            if (!theirs.equals(k)) {
                joined = joined.with(theirs);
            }
        }
        if (!joined.equals(mine)) {
            synchronized (this) {
                saveAnyway(joined);
            }
        }
    }

    @Deactivate
    void deactivate() {
        sharedRules.close();
        sharedModule.close();
        // Its drop flows go with it: stopping the firewall restores forwarding without it.
        var off = state.with(new Module(false, state.module().subnetMask()));
        for (var sw : masteredSwitches()) {
            FlowCleanup.run(sw, () -> off, topology, hits);
        }
    }

    private static Path path(String setting, BundleContext context) {
        return StateFiles.resolve(setting, context == null ? null : context.getProperty("osgi.configuration.area"),
                "firewall.txt");
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
        var s = state;
        if (!s.enabled() || !(msg instanceof OFPacketIn pi) || !ctx.frame().isEthernet()
                || !topology.isEdgePort(sw.getId(), pi.inPort())) {
            return Command.CONTINUE;
        }
        var packet = OFMatch.fromFrame(ctx.frame(), pi.inPort());
        var decision = s.decide(sw.getId(), packet);
        hits.count(decision);
        if (decision.allowed()) {
            return Command.CONTINUE;
        }
        sw.write(OFFlowMod.builder().match(packet).cookie(FlowOwner.FIREWALL.cookie())
                .idleTimeout(drops.idleTimeout()).priority(drops.priority()).bufferId(pi.bufferId()).build());
        return Command.STOP;
    }

    @Override
    public boolean isEnabled() {
        return state.enabled();
    }

    @Override
    public void setEnabled(boolean enabled) {
        setModule(m -> new Module(enabled, m.subnetMask()));
    }

    @Override
    public int getSubnetMask() {
        return state.module().subnetMask();
    }

    @Override
    public void setSubnetMask(int mask) {
        setModule(m -> new Module(m.enabled(), mask));
    }

    private void setModule(UnaryOperator<Module> change) {
        Module next;
        synchronized (this) {
            next = change.apply(state.module());
            if (next.equals(state.module())) {
                return;
            }
            save(state.with(next));
        }
        log.info("firewall {}, subnet mask {}", next.enabled() ? "enabled" : "disabled",
                IPv4Address.toString(next.subnetMask()));
        sharedModule.put(SharedFirewall.MODULE_KEY, next);
        cleanUp();
    }

    @Override
    public List<FirewallRule> getRules() {
        return state.ruleList();
    }

    @Override
    public Added add(FirewallRule rule) {
        Stored stored;
        synchronized (this) {
            var s = state;
            for (var k : s.rules()) {
                if (k.rule().isSameAs(rule)) {
                    return new Added.Similar(k.rule());
                }
            }
            int attempt = 0;
            int id;
            do {
                id = FirewallRules.id(rule, attempt++);
            } while (s.get(id).isPresent());
            stored = new Stored(rule.withId(id), sharing.clusterTimeMillis());
            save(s.with(stored));
        }
        log.info("firewall rule {} added: {}", stored.rule().id(), stored.rule().fields());
        sharedRules.put(stored.rule().id(), stored);
        cleanUp();
        return new Added.Kept(stored.rule());
    }

    @Override
    public Optional<FirewallRule> remove(int id) {
        Stored gone;
        synchronized (this) {
            gone = state.get(id).orElse(null);
            if (gone == null) {
                return Optional.empty();
            }
            save(state.without(id));
        }
        hits.forget(id);
        log.info("firewall rule {} deleted: {}", id, gone.rule().fields());
        sharedRules.remove(id);
        cleanUp();
        return Optional.of(gone.rule());
    }

    @Override
    public FirewallCounters getCounters() {
        return hits.snapshot(state.ruleList());
    }

    /** Another member added or removed a rule: kept here too, and applied to the switches this member masters. */
    private void sharedRule(Change<Integer, Stored> change) {
        synchronized (this) {
            var next = change.value() == null ? state.without(change.key()) : state.with(change.value());
            if (next.equals(state)) {
                return;
            }
            saveAnyway(next);
        }
        if (change.value() == null) {
            hits.forget(change.key());
        }
        cleanUp();
    }

    private void sharedModule(Change<String, Module> change) {
        if (change.value() == null) {
            return; // only ever replaced: its removal is the cluster's map being cleared, nobody's decision
        }
        synchronized (this) {
            if (change.value().equals(state.module())) {
                return;
            }
            saveAnyway(state.with(change.value()));
        }
        cleanUp();
    }

    /** A change made here: refused, with nothing changed, when it cannot be saved. Lock held. */
    private void save(FirewallState next) {
        StateFiles.writeOrRefuse(() -> file.write(next), "the firewall's rules", file.path());
        state = next;
    }

    /** The cluster's change: enforced even when it cannot be saved, as the other members enforce it. Lock held. */
    private void saveAnyway(FirewallState next) {
        StateFiles.tryWrite(() -> file.write(next)).ifPresent(e -> log.warn("firewall: cannot write {} ({}): the"
                + " change from the cluster is enforced but not kept for a restart", file.path(), e.getMessage()));
        state = next;
    }

    private void cleanUp() {
        for (var sw : masteredSwitches()) {
            FlowCleanup.run(sw, () -> state, topology, hits);
        }
    }

    private List<IOFSwitch> masteredSwitches() {
        return beacon.getSwitches().values().stream().filter(IOFSwitch::isMaster).toList();
    }

    @Override
    public FlowOwner owner() {
        return FlowOwner.FIREWALL;
    }

    /** A drop flow is wanted while the firewall is on and would still refuse such a packet. */
    @Override
    public FlowVerdict judge(IOFSwitch sw, OFFlowStatsEntry flow) {
        return FlowCleanup.stale(sw.getId(), flow, state, topology) ? FlowVerdict.STALE : FlowVerdict.WANTED;
    }
}
