package net.beaconcontroller.connections.internal;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.connections.HeldConnection;
import net.beaconcontroller.connections.IConnectionHolder;

/**
 * The holder: the connections in the order they came, each closed by a timer when its grace period ends untaken, all
 * closed when the bundle stops. The timer's thread exists only while something is held, so a holder with nothing to
 * do runs no thread. State: the map, guarded by this object.
 */
@Component(configurationPid = ConnectionHolder.NAME, configurationPolicy = ConfigurationPolicy.REQUIRE,
        immediate = true)
@Designate(ocd = ConnectionHolder.Config.class)
public final class ConnectionHolder implements IConnectionHolder {
    static final String NAME = "connections";
    private static final Logger log = LoggerFactory.getLogger(ConnectionHolder.class);

    @ObjectClassDefinition(name = "Switch connection holder", description = "Keeps the switches' connections open"
            + " while the core is updated or restarted (stop, start, update and refresh of net.beaconcontroller.core):"
            + " the next core takes them over, TLS sessions included, and the switches see no disconnection.")
    public @interface Config {
        @AttributeDefinition(description = "Hand the switches' connections from the stopping core to the next one."
                + " Off: a core that stops closes them and the switches reconnect.")
        boolean enabled() default true;

        @AttributeDefinition(min = "1", max = "600", description = "Seconds a connection is kept open waiting for a"
                + " core to take it; then it is closed and its switch reconnects. A switch that hears nothing echoes"
                + " after its own probe interval (Open vSwitch: 5 s) and disconnects after as long again.")
        int graceSeconds() default 5;
    }

    private final boolean enabled;
    private final Duration grace;
    private final ScheduledThreadPoolExecutor timer;
    /** Each held connection and its expiry. */
    private final Map<HeldConnection, ScheduledFuture<?>> held = new LinkedHashMap<>();

    @Activate
    public ConnectionHolder(Config config) {
        this(config.enabled(), Duration.ofSeconds(config.graceSeconds()));
    }

    ConnectionHolder(boolean enabled, Duration grace) {
        this.enabled = enabled;
        this.grace = grace;
        timer = new ScheduledThreadPoolExecutor(0, r -> {
            // See util's Threads, which this bundle does not import: a refresh of util must not restart the holder.
            var t = new Thread(null, r, "beacon-connection-holder", 0, false);
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        timer.setKeepAliveTime(100, TimeUnit.MILLISECONDS);
    }

    @Override
    public boolean deposit(HeldConnection connection) {
        if (!enabled) {
            return false;
        }
        synchronized (this) {
            if (timer.isShutdown()) {
                return false;
            }
            held.put(connection, timer.schedule(() -> expire(connection), grace.toMillis(), TimeUnit.MILLISECONDS));
        }
        log.debug("holding the connection of switch {}", connection.switchId());
        return true;
    }

    @Override
    public synchronized List<HeldConnection> withdrawAll() {
        var all = List.copyOf(held.keySet());
        held.values().forEach(expiry -> expiry.cancel(false));
        held.clear();
        return all;
    }

    private void expire(HeldConnection connection) {
        synchronized (this) {
            if (held.remove(connection) == null) {
                return; // taken back in time
            }
        }
        close(connection, "no core took it within " + grace.toSeconds() + " s");
    }

    @Deactivate
    void deactivate() {
        List<HeldConnection> left;
        synchronized (this) {
            timer.shutdownNow();
            left = withdrawAll();
        }
        for (var c : left) {
            close(c, "the connection holder stopped");
        }
    }

    private static void close(HeldConnection c, String why) {
        log.warn("switch {}: closed its held connection ({}, held for {} ms); it reconnects", c.switchId(), why,
                Duration.between(c.heldSince(), Instant.now()).toMillis());
        try {
            c.channel().close();
        } catch (IOException e) {
            log.warn("switch {}: closing its held connection failed: {}", c.switchId(), e.toString());
        }
    }
}
