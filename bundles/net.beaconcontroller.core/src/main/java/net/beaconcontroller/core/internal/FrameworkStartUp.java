package net.beaconcontroller.core.internal;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.FrameworkListener;
import org.osgi.framework.startlevel.BundleStartLevel;
import org.osgi.framework.startlevel.FrameworkStartLevel;

/**
 * Whether the start-up of the framework is over: until then the core accepts no switch, so that none is handled
 * without the applications or the cluster's role decisions, which start at later start levels (a restarted Beacon
 * would otherwise lose the first PACKET_INs of its switches, a moved host's included, before the device manager is
 * there). Equinox's launcher starts the framework at start level 1 and only then raises it: the system bundle is
 * ACTIVE while the core starts, and the end is a STARTLEVEL_CHANGED event, not STARTED. So the start-up is over once
 * the framework's start level reaches the highest start level of the bundles to be started.
 */
final class FrameworkStartUp {
    private FrameworkStartUp() {
    }

    /** A latch released when the start-up is over: at once for an update or restart of the core alone. */
    static CountDownLatch latch(BundleContext context) {
        var system = context.getBundle(Constants.SYSTEM_BUNDLE_LOCATION);
        if (system == null) {
            return new CountDownLatch(0);
        }
        var startLevel = system.adapt(FrameworkStartLevel.class);
        int last = lastStartLevel(context);
        var latch = new CountDownLatch(1);
        var listener = new FrameworkListener() {
            @Override
            public void frameworkEvent(FrameworkEvent event) {
                if (event.getType() == FrameworkEvent.STARTED || event.getType() == FrameworkEvent.STARTLEVEL_CHANGED
                        && startLevel != null && startLevel.getStartLevel() >= last) {
                    latch.countDown();
                    context.removeFrameworkListener(this);
                }
            }
        };
        // Added before the check: the start level may be reached in between.
        context.addFrameworkListener(listener);
        if (system.getState() != Bundle.STARTING && (startLevel == null || startLevel.getStartLevel() >= last)) {
            latch.countDown();
            context.removeFrameworkListener(listener);
        }
        return latch;
    }

    /** The highest start level of the bundles marked to start. */
    private static int lastStartLevel(BundleContext context) {
        return Arrays.stream(context.getBundles()).map(b -> b.adapt(BundleStartLevel.class)).filter(Objects::nonNull)
                .filter(BundleStartLevel::isPersistentlyStarted).mapToInt(BundleStartLevel::getStartLevel).max()
                .orElse(1);
    }
}
