package net.beaconcontroller.config;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.FrameworkListener;
import org.osgi.framework.startlevel.FrameworkStartLevel;

/**
 * The framework's start-up, as Beacon's bundles judge it: over once the framework has reached its beginning start
 * level. A framework launched to that level ends its start-up with FrameworkEvent STARTED; Equinox's launcher instead
 * starts the framework at level 1 and raises the level afterwards (the system bundle is ACTIVE meanwhile), which ends
 * with STARTLEVEL_CHANGED.
 */
public final class StartUp {
    /** Equinox's launcher's beginning start level when {@code osgi.startLevel} is not set. */
    private static final int EQUINOX_DEFAULT_LEVEL = 6;

    private StartUp() {
    }

    /** Whether the framework is still starting up: its bundles of the start-up are not all started yet. */
    public static boolean inProgress(BundleContext context) {
        var system = context.getBundle(Constants.SYSTEM_BUNDLE_ID);
        if (system.getState() == Bundle.STARTING) {
            return true;
        }
        var level = system.adapt(FrameworkStartLevel.class);
        return level != null && level.getStartLevel() < beginningLevel(context);
    }

    /**
     * A latch released when the start-up is over; released already when it is (a bundle installed, updated or
     * restarted in a running framework).
     */
    public static CountDownLatch latch(BundleContext context) {
        var latch = new CountDownLatch(1);
        whenOver(context, latch::countDown);
        return latch;
    }

    /**
     * Runs {@code then} once, when the start-up is over: at once on this thread when it is over already, else on the
     * framework's event thread.
     *
     * @return what stops the waiting (a bundle stopping first)
     */
    public static Runnable whenOver(BundleContext context, Runnable then) {
        var once = new AtomicBoolean();
        var listener = new FrameworkListener() {
            @Override
            public void frameworkEvent(FrameworkEvent event) {
                int type = event.getType();
                if ((type == FrameworkEvent.STARTED || type == FrameworkEvent.STARTLEVEL_CHANGED)
                        && !inProgress(context)) {
                    over();
                }
            }

            void over() {
                context.removeFrameworkListener(this);
                if (once.compareAndSet(false, true)) {
                    then.run();
                }
            }
        };
        // Added before the check: the start-up may end in between.
        context.addFrameworkListener(listener);
        if (!inProgress(context)) {
            listener.over();
        }
        return () -> {
            once.set(true);
            context.removeFrameworkListener(listener);
        };
    }

    private static int beginningLevel(BundleContext context) {
        String beginning = context.getProperty(Constants.FRAMEWORK_BEGINNING_STARTLEVEL);
        if (beginning == null) {
            beginning = context.getProperty("osgi.startLevel");
        }
        return beginning == null ? EQUINOX_DEFAULT_LEVEL : Integer.parseInt(beginning.trim());
    }
}
