package net.beaconcontroller.core.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import net.beaconcontroller.core.IFlowReconciler;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.internal.Controller;
import net.beaconcontroller.core.internal.ControllerConfig;
import net.beaconcontroller.openflow.OFPhysicalPort;

/**
 * A controller on a loopback ephemeral port (outside OSGi), with a switch listener that records every
 * {@code addedSwitch}/{@code removedSwitch} in order, and the fake switches of a test. Closing it closes them all.
 */
public final class ControllerFixture implements AutoCloseable {
    /** How long positive waits may take: far more than they need, so only a real failure hits it. */
    public static final Duration WAIT = Duration.ofSeconds(5);

    public enum Kind { ADDED, REMOVED }

    /** One switch listener call, with the thread it ran on. */
    public record SwitchEvent(Kind kind, IOFSwitch sw, long dpid, String thread) { }

    public final Controller controller;
    private final List<SwitchEvent> events = new ArrayList<>();
    private final List<Boolean> eventTaken = new ArrayList<>();
    private final List<FakeSwitch> fakes = new ArrayList<>();

    private ControllerFixture(ControllerConfig config) {
        controller = new Controller(config);
        controller.addOFSwitchListener(new IOFSwitchListener() {
            @Override
            public String getName() {
                return "recorder";
            }

            @Override
            public void addedSwitch(IOFSwitch sw) {
                record(Kind.ADDED, sw);
            }

            @Override
            public void removedSwitch(IOFSwitch sw) {
                record(Kind.REMOVED, sw);
            }
        });
    }

    /**
     * Starts a controller with the test defaults (loopback, one ephemeral port, pre-existing flows deleted) and
     * {@code settings} as in {@code beacon.properties} ("controller.threadCount=2").
     */
    public static ControllerFixture start(String... settings) {
        // DELETE: the handshake most tests script ends with the wipe's barrier and sends no flow table request; tests
        // of reconciliation ask for RECONCILE (the product's default).
        var all = new ArrayList<String>(List.of("controller.listenAddress=127.0.0.1", "controller.listenPort=0",
                "controller.legacyListenPort=-1", "controller.preExistingFlows=DELETE"));
        all.addAll(List.of(settings));
        var fx = new ControllerFixture(Configs.of(ControllerConfig.class, all.toArray(String[]::new)));
        try {
            fx.controller.start();
        } catch (IOException e) {
            try {
                fx.controller.stop();
            } catch (RuntimeException stopFailure) {
                // See LifecycleTest#aStartThatCannotBindFailsWithTheBindErrorAndStopsCleanly: keep the bind error.
                e.addSuppressed(stopFailure);
            }
            throw new UncheckedIOException(e);
        }
        return fx;
    }

    public int port() {
        try {
            return controller.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A fake switch connected (TCP only, nothing sent yet). */
    public FakeSwitch connect(long dpid, OFPhysicalPort... ports) {
        return track(FakeSwitch.connect(port(), dpid, List.of(ports)));
    }

    public FakeSwitch track(FakeSwitch fake) {
        synchronized (fakes) {
            fakes.add(fake);
        }
        return fake;
    }

    /** Sends HELLO and waits until the controller tells listeners that the switch is active. */
    public IOFSwitch handshake(FakeSwitch fake) {
        fake.hello();
        return awaitEvent(Kind.ADDED, fake.dpid()).sw();
    }

    /** A fake switch with two ports that completed the handshake. */
    public Connected connectActive(long dpid) {
        var fake = connect(dpid, FakeSwitch.port(1, "eth1"), FakeSwitch.port(2, "eth2"));
        return new Connected(fake, handshake(fake));
    }

    /** A fake switch and the controller's view of it. */
    public record Connected(FakeSwitch fake, IOFSwitch sw) { }

    /** Adds a flow reconciler as the whiteboard would when its service appears. */
    public <R extends IFlowReconciler> R addFlowReconciler(R reconciler) {
        controller.addFlowReconciler(reconciler);
        return reconciler;
    }

    /** Waits until flow reconciliation has finished {@code runs} switches in all (see the controller's stats). */
    public void awaitReconciliations(long runs) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (controller.getFlowReconciliationStats().runs() < runs) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("flow reconciliation did not finish " + runs + " switch(es) within " + WAIT
                        + ": " + controller.getFlowReconciliationStats());
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    /**
     * Adds a switch listener, as the whiteboard does for a component that starts, and returns once it has been told
     * of every switch connected now: that happens on each switch's I/O thread, which runs tasks in order.
     */
    public <L extends IOFSwitchListener> L addSwitchListener(L listener) {
        controller.addOFSwitchListener(listener);
        for (var sw : controller.getSwitches().values()) {
            var done = new CompletableFuture<Void>();
            sw.execute(() -> done.complete(null));
            done.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
        }
        return listener;
    }

    private void record(Kind kind, IOFSwitch sw) {
        synchronized (events) {
            events.add(new SwitchEvent(kind, sw, sw.getId(), Thread.currentThread().getName()));
            eventTaken.add(false);
            events.notifyAll();
        }
    }

    /** The next event of {@code kind} for {@code dpid} not returned before, waiting up to {@link #WAIT}. */
    public SwitchEvent awaitEvent(Kind kind, long dpid) {
        return awaitEvent(kind, dpid, WAIT);
    }

    public SwitchEvent awaitEvent(Kind kind, long dpid, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (events) {
            while (true) {
                for (int i = 0; i < events.size(); i++) {
                    var e = events.get(i);
                    if (!eventTaken.get(i) && e.kind() == kind && e.dpid() == dpid) {
                        eventTaken.set(i, true);
                        return e;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("no " + kind + " event for dpid " + Long.toHexString(dpid) + " within "
                            + timeout.toMillis() + " ms; events: " + events);
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(events, left);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", ie);
                }
            }
        }
    }

    /** Every switch listener call so far, in order. */
    public List<SwitchEvent> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    public long count(Kind kind, long dpid) {
        return events().stream().filter(e -> e.kind() == kind && e.dpid() == dpid).count();
    }

    /** Waits up to {@code d} (at most 300 ms) and asserts that no further event of {@code kind} arrived for {@code dpid}. */
    public void expectNoMoreEvents(Kind kind, long dpid, long expectedCount, Duration d) {
        if (d.toMillis() > 300) {
            throw new IllegalArgumentException("keep negative waits short");
        }
        long deadline = System.nanoTime() + d.toNanos();
        synchronized (events) {
            while (true) {
                long n = events.stream().filter(e -> e.kind() == kind && e.dpid() == dpid).count();
                if (n != expectedCount) {
                    throw new AssertionError("expected " + expectedCount + " " + kind + " event(s) for dpid "
                            + Long.toHexString(dpid) + ", got " + n + ": " + events);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(events, left);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", ie);
                }
            }
        }
    }

    /** Polls {@code condition} until it holds, failing with {@code what} after {@code timeout}. */
    public static void awaitTrue(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for: " + what);
            }
            Thread.onSpinWait();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }

    @Override
    public void close() {
        List<FakeSwitch> all;
        synchronized (fakes) {
            all = List.copyOf(fakes);
        }
        all.forEach(FakeSwitch::close);
        controller.stop();
    }
}
