package net.beaconcontroller.staticflowpusher.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

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
import net.beaconcontroller.core.SwitchLocal;
import net.beaconcontroller.core.shared.SharedKeys;
import net.beaconcontroller.core.shared.SharedTable;
import net.beaconcontroller.core.shared.SharedTable.Change;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFFlowRemoved;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.staticflowpusher.IStaticFlowPusher;
import net.beaconcontroller.staticflowpusher.StaticFlow;
import net.beaconcontroller.util.StateFiles;

/**
 * Keeps the static flows in a file and on their switches: writes a flow when it is added, and the flows a switch
 * lacks when the core reconciles the switch's flow table (at connection and on becoming its master), deleting the
 * static flows it has that are no longer wanted.
 *
 * <p>In a cluster the members share the flows ({@code staticflowpusher.flows}, one entry per name: the writer's id
 * and the flow's line of the file): a flow added or removed on any member is written to or taken off its switch by
 * that member (through the switch's master) and again by the member that holds the switch when the change reaches it,
 * and kept in every member's file; a member ignores its own entries coming back. A switch that connects gets its
 * flows from its master. A member that joins offers the flows of its file under
 * names the cluster does not have yet and writes them to their switches; for the other names it takes the cluster's
 * version, taking its own off the switch and writing the cluster's.
 */
@Component(configurationPid = StaticFlowPusher.NAME, configurationPolicy = ConfigurationPolicy.REQUIRE,
        immediate = true, service = {IStaticFlowPusher.class, IFlowReconciler.class, IOFMessageListener.class})
@Designate(ocd = StaticFlowPusher.Config.class)
@BeaconListener(types = OFType.FLOW_REMOVED)
public final class StaticFlowPusher implements IStaticFlowPusher, IFlowReconciler, IOFMessageListener {
    static final String NAME = "staticflowpusher";
    private static final Logger log = LoggerFactory.getLogger(StaticFlowPusher.class);
    private static final SwitchLocal<Restores> RESTORES = new SwitchLocal<>("staticflowpusher.restores",
            Restores::new);

    @ObjectClassDefinition(name = "Static flow pusher", description = "Flows kept on switches across restarts.")
    public @interface Config {
        @AttributeDefinition(description = "File the static flows are kept in. Empty: staticflows.txt in the"
                + " OSGi configuration area (the product's configuration directory), which -clean keeps.")
        String file() default "";
    }

    private final IBeaconProvider beacon;
    private final FlowFile file;
    /** By name, guarded by this; the file always holds what this holds. */
    private final Map<String, StaticFlow> flows = new LinkedHashMap<>();
    /** {@link #flows} indexed for reconciliation; guarded by this, {@code null} after a change until asked for. */
    private StaticFlowIndex index;
    /** Every member's flows; alone, this member's. */
    private final SharedTable<String, StaticFlow> shared;

    /** Joining or leaving a cluster restarts it (the shared state is a static reference). */
    @Activate
    public StaticFlowPusher(@Reference IBeaconProvider beacon,
            @Reference(cardinality = ReferenceCardinality.OPTIONAL, policyOption = ReferencePolicyOption.GREEDY)
            ISharedState cluster, BundleContext context, Config config) {
        this(beacon, new FlowFile(path(config.file(), context)), cluster);
    }

    /** With the cluster's shared state, or {@code null}. */
    StaticFlowPusher(IBeaconProvider beacon, FlowFile file, ISharedState cluster) {
        this.beacon = beacon;
        this.file = file;
        try {
            file.read().forEach(f -> flows.put(f.name(), f));
        } catch (IOException e) {
            throw new SettingException(NAME + ".file", file.path().toString(), "a static flow file Beacon can read ("
                    + e.getMessage() + ")");
        }
        log.info("{} static flow(s) from {}", flows.size(), file.path());
        shared = SharedTable.open(cluster, SharedFlows.TABLE, SharedKeys.STRINGS, SharedFlows.CODEC);
        for (var f : getFlows()) {
            join(f, shared.setIfAbsent(f.name(), f));
        }
        shared.subscribe(this::sharedFlow);
        writeToConnectedSwitches();
    }

    /**
     * Started while switches are connected (a bundle update or restart): their reconciliation is over, so their flows
     * go now, as the switch's master. Reconciliation of later connections writes only what a switch lacks.
     */
    private void writeToConnectedSwitches() {
        for (var sw : beacon.getSwitches().values()) {
            if (!sw.isMaster()) {
                continue;
            }
            var writes = missing(sw, List.of());
            if (!writes.isEmpty()) {
                sw.write(writes);
                sw.flush();
            }
        }
    }

    @Deactivate
    void deactivate() {
        shared.close();
        beacon.clearLocal(RESTORES);
    }

    /**
     * Joining: {@code mine} from this member's file, {@code theirs} what the cluster has under its name now. A switch
     * this member is not SLAVE of gets the flow from {@link #addedSwitch} right after; one it is SLAVE of through its
     * master, now, as the master may not have it.
     */
    private void join(StaticFlow mine, StaticFlow theirs) {
        if (!theirs.equals(mine)) {
            synchronized (this) {
                flows.put(theirs.name(), theirs);
                save(() -> flows.put(mine.name(), mine));
            }
            if (mine.active()) {
                send(mine.dpid(), mine, false);
            }
        }
        var sw = beacon.getSwitches().get(theirs.dpid());
        if (theirs.active() && sw != null && !sw.isMaster()) {
            send(theirs.dpid(), theirs, true);
        }
    }

    /**
     * Another member added, replaced ({@code flow} not null) or removed a flow: this member keeps it in its file too,
     * and writes it if it holds the switch. The member that made the change wrote it through the master it knew, but
     * a switch that migrated meanwhile refuses that write from its old master; its new one (MASTER, or EQUAL as the
     * migration's target) writes it here. A member that was still SLAVE when the change came reconciles the table
     * with it when it becomes master. Twice written in the steady case, which a strict ADD or DELETE allows.
     */
    private void sharedFlow(Change<String, StaticFlow> change) {
        var name = change.key();
        var flow = change.value();
        StaticFlow old;
        synchronized (this) {
            old = flow == null ? flows.remove(name) : flows.put(name, flow);
            if (Objects.equals(old, flow)) {
                return;
            }
            save(old == null ? () -> flows.remove(name) : () -> flows.put(name, old));
        }
        if (old != null && old.active()) {
            sendAsHolder(old, false);
        }
        if (flow != null && flow.active()) {
            sendAsHolder(flow, true);
        }
    }

    private void sendAsHolder(StaticFlow flow, boolean add) {
        var sw = beacon.getSwitches().get(flow.dpid());
        if (sw != null && sw.isMaster()) {
            write(sw, flow, add);
        }
    }

    private static Path path(String setting, BundleContext context) {
        return StateFiles.resolve(setting, context == null ? null : context.getProperty("osgi.configuration.area"),
                "staticflows.txt");
    }

    @Override
    public boolean add(StaticFlow flow) {
        StaticFlow old;
        synchronized (this) {
            old = flows.put(flow.name(), flow);
            save(old == null ? () -> flows.remove(flow.name()) : () -> flows.put(flow.name(), old));
        }
        shared.put(flow.name(), flow);
        if (old != null && old.active()) {
            send(old.dpid(), old, false);
        }
        return flow.active() ? send(flow.dpid(), flow, true) : beacon.getSwitches().containsKey(flow.dpid());
    }

    @Override
    public Optional<StaticFlow> remove(String name) {
        StaticFlow old;
        synchronized (this) {
            old = flows.remove(name);
            if (old == null) {
                return Optional.empty();
            }
            save(() -> flows.put(name, old));
        }
        shared.remove(name);
        if (old.active()) {
            send(old.dpid(), old, false);
        }
        return Optional.of(old);
    }

    @Override
    public int clear(long dpid) {
        return removeAll(f -> f.dpid() == dpid);
    }

    @Override
    public int clearAll() {
        return removeAll(f -> true);
    }

    private int removeAll(java.util.function.Predicate<StaticFlow> which) {
        List<StaticFlow> removed;
        synchronized (this) {
            removed = flows.values().stream().filter(which).toList();
            if (removed.isEmpty()) {
                return 0;
            }
            removed.forEach(f -> flows.remove(f.name()));
            save(() -> removed.forEach(f -> flows.put(f.name(), f)));
        }
        removed.forEach(f -> shared.remove(f.name()));
        removed.stream().filter(StaticFlow::active).forEach(f -> send(f.dpid(), f, false));
        return removed.size();
    }

    @Override
    public synchronized List<StaticFlow> getFlows() {
        var all = new ArrayList<>(flows.values());
        all.sort(Comparator.<StaticFlow, Long>comparing(StaticFlow::dpid, Long::compareUnsigned)
                .thenComparing(StaticFlow::name));
        return all;
    }

    @Override
    public FlowOwner owner() {
        return FlowOwner.STATIC_FLOWS;
    }

    /**
     * Wanted when it is exactly one of the switch's static flows; anything else with the static owner (a flow removed
     * or changed while Beacon was down, or by another member) is stale, and a changed flow is written again by
     * {@link #missing}.
     */
    @Override
    public FlowVerdict judge(IOFSwitch sw, OFFlowStatsEntry flow) {
        return index().wants(sw.getId(), flow) ? FlowVerdict.WANTED : FlowVerdict.STALE;
    }

    /**
     * The switch's active static flows not among {@code present}: all of them after a wipe. Reconciliation asks only
     * as the switch's master; in a cluster a switch gets its flows from its master.
     */
    @Override
    public List<OFFlowMod> missing(IOFSwitch sw, List<OFFlowStatsEntry> present) {
        var writes = index().missing(sw.getId(), present).stream().map(StaticFlow::add).toList();
        if (!writes.isEmpty()) {
            log.info("{} static flow(s) to write to {}", writes.size(), sw.getStringId());
        }
        return writes;
    }

    @Override
    public String getName() {
        return NAME;
    }

    /**
     * A static flow deleted by something else (another application's cleanup: a host moved, a link went down; a
     * tool) is written again, as the switch's master; one the pusher deleted itself is no longer in the index, and
     * one that timed out went as its timeouts said. See {@link Restores} for the limit.
     */
    @Override
    public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
        if (!(msg instanceof OFFlowRemoved removed) || removed.reason() != OFFlowRemoved.Reason.DELETE
                || !FlowOwner.STATIC_FLOWS.owns(removed.cookie()) || !sw.isMaster()) {
            return Command.CONTINUE;
        }
        var flow = index().removed(sw.getId(), removed).orElse(null);
        if (flow == null) {
            return Command.CONTINUE;
        }
        switch (sw.getLocal(RESTORES).deleted(flow.name(), System.nanoTime())) {
            case RESTORE -> {
                log.info("static flow '{}' was deleted from {} by something else: written again", flow.name(),
                        sw.getStringId());
                sw.write(flow.add());
                sw.flush();
            }
            case GIVE_UP -> log.warn("static flow '{}' was deleted from {} {} times in {} s: left off until the switch"
                    + " reconnects or this controller becomes its master again (is another controller or tool"
                    + " deleting it?)", flow.name(), sw.getStringId(), Restores.LIMIT + 1,
                    Restores.WINDOW_NANOS / 1_000_000_000L);
            case GIVEN_UP -> { }
        }
        return Command.CONTINUE;
    }

    /** Writes the flow's ADD or DELETE_STRICT to its switch if connected; returns whether it was. */
    private boolean send(long dpid, StaticFlow flow, boolean add) {
        var sw = beacon.getSwitches().get(dpid);
        if (sw == null) {
            return false;
        }
        write(sw, flow, add);
        return true;
    }

    private static void write(IOFSwitch sw, StaticFlow flow, boolean add) {
        sw.write(add ? flow.add() : flow.delete());
        sw.flush();
    }

    private synchronized StaticFlowIndex index() {
        if (index == null) {
            index = StaticFlowIndex.of(flows.values());
        }
        return index;
    }

    /**
     * Writes the file; if that fails, undoes the change in memory so memory and file agree, and says why. Every
     * change of {@link #flows} ends here, with the lock held: the index goes.
     */
    private void save(Runnable undo) {
        index = null;
        try {
            file.write(flows.values());
        } catch (IOException e) {
            undo.run();
            throw new UncheckedIOException("cannot write the static flows to " + file.path() + ": " + e.getMessage(),
                    e);
        }
    }
}
