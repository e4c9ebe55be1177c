package net.beaconcontroller.core;

import net.beaconcontroller.packet.Frame;

/**
 * What the listeners of one message share while it runs through the pipeline: the decoded frame of a PACKET_IN and
 * the results earlier listeners left for later ones (e.g. the device manager's source and destination device). Valid
 * only during the dispatch it was handed to; the controller reuses it for the next message.
 */
public interface MessageContext {
    /**
     * A PACKET_IN's frame, decoded lazily and only once for all listeners; for other messages a frame with
     * {@link Frame#isEthernet()} false. A view of the read buffer: copy what you keep.
     */
    Frame frame();

    /** @return what an earlier listener put under {@code key} for this message, or {@code null} */
    <T> T get(ContextKey<T> key);

    <T> void put(ContextKey<T> key, T value);
}
