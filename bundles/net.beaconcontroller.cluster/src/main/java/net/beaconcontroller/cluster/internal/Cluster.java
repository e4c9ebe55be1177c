package net.beaconcontroller.cluster.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;

import net.beaconcontroller.cluster.ICluster;
import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.IRoleArbiter;
import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.ISwitchAdjacency;

/**
 * The cluster bundle's component: its settings, and the services of the {@link Membership} it runs while
 * {@code cluster.enabled=true} (the core's {@link IRoleArbiter} and switch listener, {@link ICluster}, and
 * {@link ISharedState} once the member has joined). It places switches by their neighbourhood when the topology app
 * publishes {@link ISwitchAdjacency}.
 *
 * <p>It starts at a lower start level than the core, so that no switch is handled as this instance's own before the
 * cluster decides (see {@link IRoleArbiter}); it needs no service of the core.
 */
@Component(service = {}, immediate = true, configurationPid = "cluster",
        configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = ClusterConfig.class)
public final class Cluster {
    /** Set by SCR's thread at activation. */
    private BundleContext context;
    /** Written by SCR's thread (activate, modified), read by the member's threads. */
    private volatile ClusterConfig config;
    /** The running member, or null; written by SCR's thread, read by the joining thread (see startAndRegister). */
    private volatile Membership member;
    /** Guarded by itself, as is {@code registered}: the shared state is published from the joining thread. */
    private final List<ServiceRegistration<?>> registrations = new ArrayList<>();
    private boolean registered;
    /** The topology app's neighbourhood of switches, while it runs (SCR's thread binds it, the store reads it). */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile ISwitchAdjacency adjacency;

    @Activate
    void activate(BundleContext context, ClusterConfig c) {
        validate(c);
        this.context = context;
        if (c.enabled()) {
            startAndRegister(c);
        }
    }

    /**
     * Balancing and migration settings apply at once; turning the cluster on or off starts or leaves it; the
     * member's own settings (name, members, address, port, failure timeout) need the bundle restarted, since the
     * member would otherwise rejoin under another identity in the middle of its work.
     */
    @Modified
    void modified(ClusterConfig c) {
        validate(c);
        var before = config;
        if (before == null || !before.enabled()) {
            if (c.enabled()) {
                startAndRegister(c);
            }
            return;
        }
        if (!c.enabled()) {
            deactivate();
            config = c;
            return;
        }
        String changed = !c.name().equals(before.name()) ? "cluster.name"
                : !Arrays.equals(c.members(), before.members()) ? "cluster.members"
                : !c.bindAddress().equals(before.bindAddress()) ? "cluster.bindAddress"
                : c.port() != before.port() ? "cluster.port"
                : c.failureTimeout() != before.failureTimeout() ? "cluster.failureTimeout" : null;
        if (changed != null) {
            throw new SettingException(changed, "(changed)", "this member's own setting applies when the bundle"
                    + " restarts: set it with --save, then stop and start net.beaconcontroller.cluster");
        }
        config = c;
    }

    private void startAndRegister(ClusterConfig c) {
        synchronized (registrations) {
            registered = true;
        }
        config = c;
        var m = new Membership(() -> config, () -> {
            var a = adjacency;
            return a == null ? Map.of() : a.neighbours();
        });
        member = m;
        m.start();
        // Registered before the member has joined: switches that connect meanwhile wait for it (initialRole).
        register(IRoleArbiter.class, m.arbiter());
        register(IOFSwitchListener.class, m.arbiter());
        register(ICluster.class, m.view());
        // Only once joined: an application that finds it reads the other members' state at once.
        m.ready().thenAccept(j -> {
            synchronized (registrations) {
                if (m == member && j.hz().getLifecycleService().isRunning()) {
                    register(ISharedState.class, new SharedState(j.hz()));
                }
            }
        });
    }

    /** Publishes a service of the member unless the bundle is stopping. */
    private <T> void register(Class<T> type, T service) {
        synchronized (registrations) {
            if (registered && context != null) {
                registrations.add(context.registerService(type, service, null));
            }
        }
    }

    @Deactivate
    void deactivate() {
        var m = member;
        try {
            if (m != null) {
                m.handOff(); // while the core still has this arbiter: migrations need it
            }
        } finally {
            synchronized (registrations) {
                registered = false;
                registrations.forEach(ServiceRegistration::unregister);
                registrations.clear();
            }
            member = null;
            if (m != null) {
                m.stop();
            }
        }
    }

    private static void validate(ClusterConfig c) {
        for (var m : c.members()) {
            if (!m.matches("[A-Za-z0-9.:\\[\\]-]+(:\\d{1,5})?")) {
                throw new SettingException("cluster.members", String.join(",", c.members()),
                        "expected host or host:port entries, got '" + m + "'");
            }
        }
        if (c.lowWater() >= c.highWater()) {
            throw new SettingException("cluster.lowWater", Integer.toString(c.lowWater()),
                    "it must be below cluster.highWater (" + c.highWater() + ")");
        }
    }
}
