package net.beaconcontroller.core;

import net.beaconcontroller.openflow.OFMessage;

/**
 * Receives the messages of the OpenFlow types it subscribed to with
 * {@link IBeaconProvider#addOFMessageListener}. Listeners of one type form a pipeline ordered by
 * {@code controller.callbackOrdering[TYPE]}.
 *
 * <p>Threading: {@link #receive} runs on the I/O thread that owns the switch, so all messages of one switch arrive one
 * at a time, in order, and per-switch state needs no locks. It must not block. A listener that throws is logged with
 * the switch and its name, and the next listener runs.
 *
 * <p>A {@code PACKET_IN}'s frame is a view of the controller's read buffer, valid only during {@code receive}: copy
 * it ({@code OFPacketIn#dataCopy}) to keep it.
 */
public interface IOFMessageListener {
    /** The name used in {@code controller.callbackOrdering} and in log lines; unique among listeners of a type. */
    String getName();

    Command receive(IOFSwitch sw, OFMessage msg);
}
