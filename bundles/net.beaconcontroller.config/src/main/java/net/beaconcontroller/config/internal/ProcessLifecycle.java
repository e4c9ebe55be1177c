package net.beaconcontroller.config.internal;

import java.util.concurrent.atomic.AtomicBoolean;

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
 * switches are disconnected cleanly; a framework stopped from the console ({@code close}) ends the process, which the
 * console's stdin thread would otherwise keep alive; and a start-up that cannot go on ends it with exit code 2.
 */
@Component(service = ProcessLifecycle.class, immediate = true)
public final class ProcessLifecycle {
    private static final Logger log = LoggerFactory.getLogger(ProcessLifecycle.class);
    /** The whole shutdown must stay well inside the 5 s a service manager usually grants. */
    private static final long STOP_MILLIS = 4000;
    /** A failed start-up exits after this even if some bundle does not stop. */
    private static final long FAILED_START_STOP_MILLIS = 3000;
    static final int EXIT_BAD_SETTINGS = 2;

    private final Framework framework;
    private final Thread hook;
    private final Thread exitOnStop;
    private final AtomicBoolean failing = new AtomicBoolean();
    private volatile boolean signalled;
    private volatile int exitCode;

    @Activate
    public ProcessLifecycle(BundleContext context) {
        framework = (Framework) context.getBundle(0);
        hook = thread(() -> {
            signalled = true;
            try {
                log.info("shutting down");
                framework.stop();
                framework.waitForStop(STOP_MILLIS);
            } catch (BundleException | InterruptedException e) {
                log.warn("framework did not stop cleanly: {}", e.toString());
            }
        }, "beacon-shutdown");
        exitOnStop = thread(() -> {
            try {
                framework.waitForStop(0);
            } catch (InterruptedException e) {
                return;
            }
            if (!signalled) {
                System.exit(exitCode);
            }
        }, "beacon-lifecycle");
        exitOnStop.setDaemon(true);
        Runtime.getRuntime().addShutdownHook(hook);
        exitOnStop.start();
    }

    /**
     * Start-up cannot go on: prints {@code beacon: <line>} once to stderr, logs it, and ends the process with exit
     * code 2. The framework is stopped from a thread of its own, so a caller on the start-level thread is not
     * blocked; the exit comes when the framework has stopped, or after a short bound.
     */
    void failStartup(String line) {
        if (!failing.compareAndSet(false, true)) {
            // Only the first problem is the one line; while the framework stops, more may follow from it.
            log.debug("{}", line);
            return;
        }
        System.err.println("beacon: " + line);
        System.err.flush();
        log.error("{}", line);
        exitCode = EXIT_BAD_SETTINGS;
        var exit = thread(() -> {
            try {
                framework.stop();
                framework.waitForStop(FAILED_START_STOP_MILLIS);
            } catch (BundleException | InterruptedException e) {
                log.warn("framework did not stop cleanly: {}", e.toString());
            }
            System.exit(EXIT_BAD_SETTINGS);
        }, "beacon-exit");
        // Not a daemon (a thread inherits the flag, and the start-level thread is one): once the framework has
        // stopped nothing else keeps the JVM alive, and it must not end with status 0 before this thread exits.
        exit.setDaemon(false);
        exit.start();
    }

    /**
     * A thread without inheritable thread-locals, as net.beaconcontroller.util.Threads makes them (a console command's
     * output, which a thread interrupted while writing to it would close for the whole process). This bundle does not
     * import util: a refresh of util must not restart it.
     */
    static Thread thread(Runnable task, String name) {
        return new Thread(null, task, name, 0, false);
    }

    boolean failing() {
        return failing.get();
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
