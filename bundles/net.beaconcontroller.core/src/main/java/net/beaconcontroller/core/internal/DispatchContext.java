package net.beaconcontroller.core.internal;

import java.nio.ByteBuffer;
import java.util.Arrays;

import net.beaconcontroller.core.ContextKey;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.packet.Frame;

/**
 * The {@link MessageContext} of one I/O thread, reused for every message it dispatches, so a dispatch allocates
 * nothing: the frame view is re-aimed at the next PACKET_IN (and decoded only if a listener asks), and the slots
 * listeners filled are cleared when the dispatch ends.
 */
final class DispatchContext implements MessageContext {
    private static final ByteBuffer NO_FRAME = ByteBuffer.allocate(0);

    private final Frame frame = new Frame();
    private OFPacketIn packetIn;
    private boolean frameReady;
    private Object[] slots = new Object[8];
    /** One past the highest slot written in this dispatch: only those need clearing. */
    private int used;
    private boolean busy;
    /** The I/O thread's index: where it counts in the listeners' meters. */
    private final int slot;
    private int dispatches;

    DispatchContext(int slot) {
        this.slot = slot;
    }

    int slot() {
        return slot;
    }

    /** Whether this dispatch is one of the one in 64 whose listeners are timed. */
    boolean timeThisDispatch() {
        return (++dispatches & 63) == 0;
    }

    /** Whether a dispatch is using this context: a dispatch nested in it (rare) must take a fresh one. */
    boolean busy() {
        return busy;
    }

    void begin(OFMessage msg) {
        busy = true;
        packetIn = msg instanceof OFPacketIn pi ? pi : null;
        frameReady = false;
    }

    void end() {
        busy = false;
        packetIn = null;
        if (used > 0) {
            Arrays.fill(slots, 0, used, null);
            used = 0;
        }
    }

    @Override
    public Frame frame() {
        if (!frameReady) {
            // The message's own buffer, not pi.frame(): that makes a read-only view per call, one per PACKET_IN.
            if (packetIn != null) {
                packetIn.wrapFrame(frame);
            } else {
                frame.wrap(NO_FRAME);
            }
            frameReady = true;
        }
        return frame;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T get(ContextKey<T> key) {
        int i = key.index();
        return i < used ? (T) slots[i] : null;
    }

    @Override
    public <T> void put(ContextKey<T> key, T value) {
        int i = key.index();
        if (i >= slots.length) {
            slots = Arrays.copyOf(slots, Math.max(i + 1, slots.length * 2));
        }
        slots[i] = value;
        used = Math.max(used, i + 1);
    }
}
