package net.beaconcontroller.util.internal;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** Runs the {@link Ticker} exactly while the util bundle is active. */
public final class Activator implements BundleActivator {
    @Override
    public void start(BundleContext context) {
        Ticker.start();
    }

    @Override
    public void stop(BundleContext context) throws InterruptedException {
        Ticker.stop();
    }
}
