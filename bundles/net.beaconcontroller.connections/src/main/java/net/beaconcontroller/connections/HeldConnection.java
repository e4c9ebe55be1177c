package net.beaconcontroller.connections;

import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Instant;
import java.util.Objects;

/**
 * An active switch connection between two cores: only what OpenFlow itself does not let the next core ask for again.
 * Its types are the JDK's, as the core that deposits it and the core that takes it load their classes separately.
 *
 * @param channel  the switch's socket, open, non-blocking
 * @param switchId the switch's DPID as the core writes it (for log lines; the next core asks the switch again)
 * @param unread   bytes the core had read from the socket but not yet handled: the start of a message (read-only)
 * @param unsent   bytes the core had written but the socket had not taken yet (read-only)
 * @param nextXid  the transaction id the next request takes, so that a late reply to a request of the old core
 *                 cannot be taken for the answer to a request of the new one
 * @param heldSince when the core let go of it
 */
public record HeldConnection(SocketChannel channel, String switchId, ByteBuffer unread, ByteBuffer unsent,
        int nextXid, Instant heldSince) {
    public HeldConnection {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(switchId, "switchId");
        unread = unread.asReadOnlyBuffer();
        unsent = unsent.asReadOnlyBuffer();
        Objects.requireNonNull(heldSince, "heldSince");
    }
}
