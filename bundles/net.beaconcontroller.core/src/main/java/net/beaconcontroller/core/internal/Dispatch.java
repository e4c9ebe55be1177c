package net.beaconcontroller.core.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.util.Prefetch;

/**
 * A message through its listeners, on a switch's I/O thread: the hot path of every PACKET_IN, kept apart from the
 * controller's life cycle and listener bookkeeping, and static so that the PACKET_IN path benchmark runs this very
 * code. A listener that fails is logged and passed over.
 */
final class Dispatch {
    private static final Logger log = LoggerFactory.getLogger(Dispatch.class);

    private Dispatch() {
    }

    /**
     * Runs a message through {@code pipeline} with the loop's {@code shared} context (a fresh one for a dispatch
     * nested in another). Static so that the PACKET_IN path benchmark runs this very code.
     */
    static void run(Pipeline pipeline, DispatchContext shared, IOFSwitch sw, OFMessage msg) {
        var listeners = pipeline.listeners();
        if (listeners.length == 0) {
            return;
        }
        var meters = pipeline.meters();
        var ctx = shared.busy() ? new DispatchContext(shared.slot()) : shared;
        ctx.begin(msg);
        int base = ListenerMeter.base(ctx.slot());
        boolean timed = ctx.timeThisDispatch();
        try {
            for (int i = 0; i < listeners.length; i++) {
                var listener = listeners[i];
                var cells = meters[i].cells;
                cells[base + ListenerMeter.CALLS]++;
                long start = timed ? System.nanoTime() : 0;
                Command result;
                try {
                    result = listener.receive(sw, msg, ctx);
                } catch (Throwable t) {
                    cells[base + ListenerMeter.ERRORS]++;
                    survive(t, "listener " + listener.getName() + " failed on " + msg.type() + " from switch "
                            + sw.getStringId());
                    continue;
                }
                if (timed) {
                    cells[base + ListenerMeter.TIMED_CALLS]++;
                    cells[base + ListenerMeter.TIMED_NANOS] += System.nanoTime() - start;
                }
                if (result == Command.STOP) {
                    return;
                }
            }
        } finally {
            ctx.end();
        }
    }

    static void prefetch(IOFMessageListener[] prefetchers, IOFSwitch sw, int inPort, Frame frame, Prefetch prefetch) {
        for (var listener : prefetchers) {
            try {
                listener.prefetch(sw, inPort, frame, prefetch);
            } catch (Throwable t) {
                survive(t, "listener " + listener.getName() + " failed to prefetch a PACKET_IN from switch "
                        + sw.getStringId());
            }
        }
    }

    /**
     * A listener's failure is logged and the I/O thread carries on: one bad application must not take the
     * switches of every other one down. Only a JVM in trouble (out of memory, internal error) is rethrown.
     */
    static void survive(Throwable t, String what) {
        if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) {
            throw (VirtualMachineError) t;
        }
        log.error(what, t);
    }
}
