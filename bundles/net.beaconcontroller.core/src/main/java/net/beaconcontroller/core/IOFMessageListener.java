package net.beaconcontroller.core;

import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.util.MacTable;
import net.beaconcontroller.util.Prefetch;

/**
 * Receives the OpenFlow messages of the types it subscribed to: publish it as an OSGi service with
 * {@link BeaconListener#types()} (or add it with {@link IBeaconProvider#addOFMessageListener}). The listeners of one
 * type form a pipeline ordered by their {@link BeaconListener#before()}/{@link BeaconListener#after()} constraints
 * and {@code controller.callbackOrdering[TYPE]}.
 *
 * <p>Threading: {@link #receive} runs on the I/O thread that owns the switch, so all messages of one switch arrive one
 * at a time, in order, and per-switch state ({@link SwitchLocal}) needs no locks. It must not block. A listener that
 * throws is logged with the switch and its name, and the next listener runs.
 *
 * <p>A {@code PACKET_IN}'s frame is a view of the controller's read buffer, valid only during {@code receive}: read it
 * through {@link MessageContext#frame()} (decoded once for all listeners), and copy what you keep.
 */
public interface IOFMessageListener {
    /**
     * The name used in ordering constraints, {@code controller.callbackOrdering} and log lines; by default the class's
     * simple name in lower case ({@code LearningSwitch}: {@code learningswitch}).
     */
    default String getName() {
        return getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
    }

    Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx);

    /**
     * A PACKET_IN listener may name the memory its {@link #receive} will read first: when several PACKET_INs arrive
     * in one read, the I/O thread shows each listener of the PACKET_IN pipeline that overrides this method the next
     * few of them, loads everything they added to {@code prefetch} back to back, then dispatches them. Loads of state
     * far beyond the caches (a MAC table of millions of entries) then overlap instead of stalling one message at a
     * time. Runs on the switch's I/O thread; it must only read: no state change, no write to the switch, nothing kept
     * (the frame is a view of the read buffer, valid during the call only). A listener that does not override it
     * costs nothing.
     *
     * @param inPort   the PACKET_IN's in_port
     * @param frame    the PACKET_IN's frame
     * @param prefetch where to add the array elements to load (see {@link MacTable#prefetch})
     */
    default void prefetch(IOFSwitch sw, int inPort, Frame frame, Prefetch prefetch) {
    }
}
