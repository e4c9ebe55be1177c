package net.beaconcontroller.core.internal;

import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.openflow.OFMessage;

/**
 * {@code Dispatch.run} without the controller around it, for the PACKET_IN path benchmark: the same static
 * dispatch with the same reused {@link DispatchContext} (package-private, hence this class in the core's package).
 */
public final class DispatchHarness {
    private final DispatchContext shared = new DispatchContext(0);
    private final Pipeline pipeline;

    public DispatchHarness(IOFMessageListener... listeners) {
        this.pipeline = Pipeline.of(1, listeners);
    }

    public void dispatch(IOFSwitch sw, OFMessage msg) {
        Dispatch.run(pipeline, shared, sw, msg);
    }
}
