package net.beaconcontroller.core.internal;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.launch.Framework;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ties the process to the framework: SIGTERM or Ctrl-C stops the framework, so bundles deactivate in order and
 * switches are disconnected cleanly; and a framework stopped from the console ({@code close}) ends the process, which
 * the console's own stdin thread would otherwise keep alive.
 */
@Component(immediate = true)
public final class ShutdownOnSignal {
    private static final Logger log = LoggerFactory.getLogger(ShutdownOnSignal.class);
    /** The whole shutdown must stay well inside the 5 s a service manager usually grants. */
    private static final long STOP_MILLIS = 4000;

    private final Framework framework;
    private final Thread hook;
    private final Thread exitOnStop;
    private volatile boolean signalled;

    @Activate
    public ShutdownOnSignal(BundleContext context) {
        framework = (Framework) context.getBundle(0);
        hook = new Thread(() -> {
            signalled = true;
            try {
                log.info("shutting down");
                framework.stop();
                framework.waitForStop(STOP_MILLIS);
            } catch (BundleException | InterruptedException e) {
                log.warn("framework did not stop cleanly: {}", e.toString());
            }
        }, "beacon-shutdown");
        exitOnStop = new Thread(() -> {
            try {
                framework.waitForStop(0);
            } catch (InterruptedException e) {
                return;
            }
            if (!signalled) {
                System.exit(0);
            }
        }, "beacon-exit-on-stop");
        exitOnStop.setDaemon(true);
        Runtime.getRuntime().addShutdownHook(hook);
        exitOnStop.start();
    }

    @Deactivate
    void deactivate() {
        if (framework.getState() != Bundle.STOPPING) {
            // Only this bundle stops (or is updated): the process lives on, a new instance takes over.
            exitOnStop.interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is already exiting, and this hook is what stopped us.
        }
    }
}
