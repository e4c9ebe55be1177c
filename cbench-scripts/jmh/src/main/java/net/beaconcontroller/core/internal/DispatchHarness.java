package net.beaconcontroller.core.internal;

import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.openflow.OFMessage;

/**
 * {@code Controller.dispatch} without the controller around it, for the PACKET_IN path benchmark: the same reused
 * {@link DispatchContext} (package-private, hence this class in the core's package) and the same loop, try/finally
 * and failure handling. Keep it in step with {@code Controller.dispatch}.
 */
public final class DispatchHarness {
    private final DispatchContext shared = new DispatchContext();
    private final IOFMessageListener[] pipeline;

    public DispatchHarness(IOFMessageListener... pipeline) {
        this.pipeline = pipeline;
    }

    public void dispatch(IOFSwitch sw, OFMessage msg) {
        var pipeline = this.pipeline;
        if (pipeline.length == 0) {
            return;
        }
        var ctx = shared.busy() ? new DispatchContext() : shared;
        ctx.begin(msg);
        try {
            for (var listener : pipeline) {
                Command result;
                try {
                    result = listener.receive(sw, msg, ctx);
                } catch (Throwable t) {
                    throw new IllegalStateException("listener " + listener.getName() + " failed", t);
                }
                if (result == Command.STOP) {
                    return;
                }
            }
        } finally {
            ctx.end();
        }
    }
}
