package net.beaconcontroller.acl.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;

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

import net.beaconcontroller.acl.AclCounters;
import net.beaconcontroller.acl.AclRule;
import net.beaconcontroller.acl.IAcl;
import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.core.BeaconListener;
import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.shared.SharedTable;
import net.beaconcontroller.core.shared.SharedTable.Change;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceListener;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.staticflowpusher.IStaticFlowPusher;
import net.beaconcontroller.staticflowpusher.StaticFlow;
import net.beaconcontroller.util.StateFiles;

/**
 * Floodlight's ACL: rules kept in a file and shared by the members of a cluster; DENY rules enforced as static flows
 * by one {@link EnforcerThread}, whenever the rules or the hosts change and every few seconds (which also catches
 * switches that connect or change master).
 *
 * <p>It is also in the PACKET_IN pipeline, before forwarding: a packet a DENY is about goes no further. The drop flow
 * and the delete of the flows it covers reach a switch after PACKET_INs already on their way, and in OpenFlow 1.0 an
 * exact-match flow routing wrote for one of those would beat the drop flow for as long as the traffic lasts.
 *
 * <p>State: one immutable {@link AclState}, replaced whole under this object's lock, saved to the file before it is
 * used. The static flows stay when the bundle stops: a DENY is the operator's and must not lapse during an update;
 * they go with their rules (also when the ACL starts again and finds rules deleted meanwhile).
 */
@Component(configurationPid = Acl.NAME, configurationPolicy = ConfigurationPolicy.REQUIRE, immediate = true,
        service = {IAcl.class, IDeviceListener.class, IOFMessageListener.class})
@Designate(ocd = Acl.Config.class)
@BeaconListener(types = OFType.PACKET_IN, after = {"topology", "devicemanager"}, before = {"routing",
    "learningswitch"})
public final class Acl implements IAcl, IDeviceListener, IOFMessageListener {
    static final String NAME = "acl";
    private static final Logger log = LoggerFactory.getLogger(Acl.class);
    /** A switch's I/O thread takes a task within milliseconds unless it is stuck. */
    private static final long COVERED_WAIT_MS = 1000;

    @ObjectClassDefinition(name = "ACL", description = "Floodlight's ACL (/wm/acl/...): DENY rules enforced as static"
            + " flows where the hosts they are about are attached; rules are kept in a file.")
    public @interface Config {
        @AttributeDefinition(description = "File the ACL's rules are kept in. Empty: acl.txt in the OSGi"
                + " configuration area (the product's configuration directory), which -clean keeps.")
        String file() default "";

        @AttributeDefinition(min = "2", max = "65535", description = "Priority of rule 1's flows; rule n's is this"
                + " minus n, so earlier rules win. Above routing's flows (32768) so that a DENY wins over a wildcarded"
                + " one (an exact-match flow wins whatever the priority in OpenFlow 1.0: the ACL deletes those a DENY"
                + " covers). Floodlight: 30000, above its forwarding's 1.")
        int priority() default 40000;

        @AttributeDefinition(min = "1", max = "3600", description = "Seconds between two checks of the ACL's static"
                + " flows against the rules and hosts, besides those made at every change (catches switches that"
                + " connect or change master).")
        int recheckSeconds() default 5;
    }

    private final IStaticFlowPusher pusher;
    private final IDeviceManager devices;
    private final IBeaconProvider beacon;
    private final AclFile file;
    private final int basePriority;
    private final SharedTable<Integer, AclRule> shared;
    private final EnforcerThread enforcer;
    private final LongAdder installed = new LongAdder();
    private final LongAdder removed = new LongAdder();
    /** Written only with this object's lock held, after the file. */
    private volatile AclState state;

    @Activate
    public Acl(@Reference IStaticFlowPusher pusher, @Reference IDeviceManager devices, @Reference IBeaconProvider beacon,
            @Reference(cardinality = ReferenceCardinality.OPTIONAL, policyOption = ReferencePolicyOption.GREEDY)
            ISharedState cluster, BundleContext context, Config config) {
        this(pusher, devices, beacon, new AclFile(path(config.file(), context)), cluster, config.priority(),
                config.recheckSeconds());
    }

    /** With the cluster's shared state, or {@code null}. */
    Acl(IStaticFlowPusher pusher, IDeviceManager devices, IBeaconProvider beacon, AclFile file, ISharedState cluster,
            int basePriority, int recheckSeconds) {
        this.pusher = pusher;
        this.devices = devices;
        this.beacon = beacon;
        this.file = file;
        this.basePriority = basePriority;
        try {
            state = file.read();
        } catch (IOException e) {
            throw new SettingException(NAME + ".file", file.path().toString(), "an ACL file Beacon can read ("
                    + e.getMessage() + ")");
        }
        log.info("ACL with {} rule(s) from {}", state.rules().size(), file.path());
        shared = SharedTable.open(cluster, SharedAcl.RULES, SharedAcl.RULE_KEYS, SharedAcl.RULE_CODEC);
        join();
        shared.subscribe(this::sharedRule);
        enforcer = new EnforcerThread(this::enforce, recheckSeconds);
    }

    /** Offers this member's rules to the cluster; where the cluster has another rule under an id, takes it. */
    private void join() {
        var mine = state;
        var joined = mine;
        for (var r : mine.rules()) {
            var theirs = shared.setIfAbsent(r.id(), r);
            if (!theirs.equals(r)) {
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
        shared.close();
        enforcer.close();
    }

    private static Path path(String setting, BundleContext context) {
        return StateFiles.resolve(setting, context == null ? null : context.getProperty("osgi.configuration.area"),
                "acl.txt");
    }

    @Override
    public List<AclRule> getRules() {
        return state.rules();
    }

    @Override
    public Added add(AclRule rule) {
        AclRule kept;
        synchronized (this) {
            var covering = state.covering(rule);
            if (covering.isPresent()) {
                return new Added.Covered(covering.get());
            }
            // Ids are claimed in the cluster: two members adding at once get different ones.
            int id = state.nextId();
            var theirs = shared.setIfAbsent(id, rule.withId(id));
            while (!theirs.equals(rule.withId(id))) {
                saveAnyway(state.with(theirs));
                id++;
                theirs = shared.setIfAbsent(id, rule.withId(id));
            }
            kept = rule.withId(id);
            try {
                save(state.with(kept));
            } catch (UncheckedIOException e) {
                shared.remove(id);
                throw e;
            }
        }
        log.info("ACL rule {} added: {}", kept.id(), kept);
        enforcer.runNow();
        return new Added.Kept(kept);
    }

    @Override
    public Optional<AclRule> remove(int id) {
        AclRule gone;
        synchronized (this) {
            gone = state.get(id).orElse(null);
            if (gone == null) {
                return Optional.empty();
            }
            save(state.without(id));
        }
        log.info("ACL rule {} deleted: {}", id, gone);
        shared.remove(id);
        enforcer.runNow();
        return Optional.of(gone);
    }

    @Override
    public int clear() {
        List<AclRule> gone;
        synchronized (this) {
            gone = state.rules();
            save(AclState.EMPTY);
        }
        log.info("ACL cleared: {} rule(s) deleted", gone.size());
        for (var r : gone) {
            shared.remove(r.id());
        }
        enforcer.runNow();
        return gone.size();
    }

    @Override
    public String getName() {
        return NAME;
    }

    /** On a switch's I/O thread: reads one snapshot of the rules, without a lock. */
    @Override
    public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
        var s = state;
        if (s.rules().isEmpty() || !(msg instanceof OFPacketIn pi) || !ctx.frame().isEthernet()) {
            return Command.CONTINUE;
        }
        return s.denies(OFMatch.fromFrame(ctx.frame(), pi.inPort())) ? Command.STOP : Command.CONTINUE;
    }

    @Override
    public AclCounters getCounters() {
        long flows = pusher.getFlows().stream().filter(f -> Enforcer.ruleId(f.name()) >= 0).count();
        return new AclCounters(flows, installed.sum(), removed.sum());
    }

    /** Another member added or removed a rule (or this one's removal coming back). */
    private void sharedRule(Change<Integer, AclRule> change) {
        synchronized (this) {
            var next = change.value() == null ? state.without(change.key()) : state.with(change.value());
            if (next.equals(state)) {
                return;
            }
            saveAnyway(next);
        }
        enforcer.runSoon();
    }

    /** A change made here: refused, with nothing changed, when it cannot be saved. Lock held. */
    private void save(AclState next) {
        StateFiles.writeOrRefuse(() -> file.write(next), "the ACL's rules", file.path());
        state = next;
    }

    /** The cluster's change: enforced even when it cannot be saved, as the other members enforce it. Lock held. */
    private void saveAnyway(AclState next) {
        StateFiles.tryWrite(() -> file.write(next)).ifPresent(e -> log.warn("ACL: cannot write {} ({}): the change"
                + " from the cluster is enforced but not kept for a restart", file.path(), e.getMessage()));
        state = next;
    }

    /** On the enforcer thread only. */
    private void enforce() {
        var s = state;
        Set<Long> mastered = beacon.getSwitches().values().stream().filter(IOFSwitch::isMaster)
                .map(IOFSwitch::getId).collect(Collectors.toSet());
        LongPredicate here = mastered::contains;
        // Only a DENY rule's flows go where hosts are. Without one, no list of every host: a host spraying spoofed
        // sources makes it tens of thousands long, and every new host asks for a run (measured: most of Beacon's CPU
        // under the guard's e2e spray, docs/guard.md).
        var hosts = s.rules().stream().anyMatch(r -> r.action() == AclRule.Action.DENY) ? devices.getDevices()
                : List.<Device>of();
        var wanted = Enforcer.wanted(s.rules(), hosts, here, basePriority);
        var ids = s.rules().stream().map(AclRule::id).collect(Collectors.toSet());
        var applied = Enforcer.apply(pusher, wanted, ids, here, this::deleteCovered);
        installed.add(applied.added());
        removed.add(applied.removed());
        if (applied.added() + applied.removed() > 0) {
            log.debug("ACL flows: {} added, {} removed", applied.added(), applied.removed());
        }
    }

    /**
     * Deletes the flows {@code drop} covers on its switch, whoever's (see {@link Enforcer}). Sent from the switch's
     * I/O thread, after the PACKET_INs it already took (whose flows it thus deletes too), and waited for, so that the
     * drop flow the static flow pusher writes next comes after it.
     */
    private void deleteCovered(StaticFlow drop) {
        var sw = beacon.getSwitches().get(drop.dpid());
        if (sw == null) {
            return; // not connected: the pusher writes the flow when it connects, before any routing flow
        }
        var delete = OFFlowMod.builder().command(OFFlowMod.Command.DELETE).match(drop.match()).outPort(OFPort.NONE)
                .build();
        var sent = new CompletableFuture<Void>();
        sw.execute(() -> {
            sw.write(delete);
            sent.complete(null);
        });
        try {
            sent.get(COVERED_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            log.warn("ACL: {} did not take the delete of the flows under {} within {} ms; they may outlive the rule's"
                    + " start until they idle out", sw.getStringId(), drop.name(), COVERED_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void deviceAdded(Device device) {
        enforcer.runSoon();
    }

    @Override
    public void deviceMoved(Device before, Device now) {
        enforcer.runSoon();
    }

    @Override
    public void deviceIpChanged(Device before, Device now) {
        enforcer.runSoon();
    }

    @Override
    public void deviceRemoved(Device device) {
        enforcer.runSoon();
    }
}
