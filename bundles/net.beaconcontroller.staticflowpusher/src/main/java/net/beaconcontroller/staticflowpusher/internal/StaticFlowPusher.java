package net.beaconcontroller.staticflowpusher.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.staticflowpusher.IStaticFlowPusher;
import net.beaconcontroller.staticflowpusher.StaticFlow;

/**
 * Keeps the static flows in a file and on their switches: writes a flow when it is added and every flow of a switch
 * when the switch connects (after the controller's own start-up deletes, so they stay).
 */
@Component(configurationPid = StaticFlowPusher.NAME, configurationPolicy = ConfigurationPolicy.REQUIRE,
        immediate = true, service = {IStaticFlowPusher.class, IOFSwitchListener.class})
@Designate(ocd = StaticFlowPusher.Config.class)
public final class StaticFlowPusher implements IStaticFlowPusher, IOFSwitchListener {
    static final String NAME = "staticflowpusher";
    private static final Logger log = LoggerFactory.getLogger(StaticFlowPusher.class);

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

    @Activate
    public StaticFlowPusher(@Reference IBeaconProvider beacon, BundleContext context, Config config) {
        this(beacon, new FlowFile(path(config.file(), context)));
    }

    StaticFlowPusher(IBeaconProvider beacon, FlowFile file) {
        this.beacon = beacon;
        this.file = file;
        try {
            file.read().forEach(f -> flows.put(f.name(), f));
        } catch (IOException e) {
            throw new SettingException(NAME + ".file", file.path().toString(), "a static flow file Beacon can read ("
                    + e.getMessage() + ")");
        }
        log.info("{} static flow(s) from {}", flows.size(), file.path());
        // Switches that connected before this component started get no addedSwitch.
        beacon.getSwitches().values().forEach(this::addedSwitch);
    }

    private static Path path(String setting, BundleContext context) {
        if (!setting.isEmpty()) {
            return Path.of(setting);
        }
        var area = context == null ? null : context.getProperty("osgi.configuration.area");
        return area == null ? Path.of("staticflows.txt") : Path.of(URI.create(area.replace(" ", "%20")))
                .resolve("staticflows.txt");
    }

    @Override
    public boolean add(StaticFlow flow) {
        StaticFlow old;
        synchronized (this) {
            old = flows.put(flow.name(), flow);
            save(old == null ? () -> flows.remove(flow.name()) : () -> flows.put(flow.name(), old));
        }
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
    public String getName() {
        return NAME;
    }

    @Override
    public void addedSwitch(IOFSwitch sw) {
        var mine = getFlows().stream().filter(f -> f.dpid() == sw.getId() && f.active()).map(StaticFlow::add)
                .toList();
        if (!mine.isEmpty()) {
            sw.write(mine);
            sw.flush();
            log.info("{} static flow(s) written to {}", mine.size(), sw.getStringId());
        }
    }

    @Override
    public void removedSwitch(IOFSwitch sw) {
    }

    /** Writes the flow's ADD or DELETE_STRICT to its switch if connected; returns whether it was. */
    private boolean send(long dpid, StaticFlow flow, boolean add) {
        var sw = beacon.getSwitches().get(dpid);
        if (sw == null) {
            return false;
        }
        sw.write(add ? flow.add() : flow.delete());
        sw.flush();
        return true;
    }

    /** Writes the file; if that fails, undoes the change in memory so memory and file agree, and says why. */
    private void save(Runnable undo) {
        try {
            file.write(flows.values());
        } catch (IOException e) {
            undo.run();
            throw new UncheckedIOException("cannot write the static flows to " + file.path() + ": " + e.getMessage(),
                    e);
        }
    }
}
