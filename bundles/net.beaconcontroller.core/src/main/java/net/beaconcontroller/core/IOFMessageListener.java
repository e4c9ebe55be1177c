package net.beaconcontroller.core;

import net.beaconcontroller.openflow.OFMessage;

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
}
