package net.beaconcontroller.routing.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The frames one switch flooded in the last {@link #WINDOW_NANOS}, with the port each came in on. The same frame back
 * at the same switch that soon went round a loop that discovery does not know (yet): a cable whose probes were lost,
 * a port whose quarantine ended before the far switch connected, a switch outside OpenFlow that bridges two ports.
 * Dropping it lets such a loop carry a broadcast once instead of storming. A copy is one that comes back through
 * another port within the window, or through the same port within {@link #SAME_PORT_NANOS} (a turn of a loop through
 * the controller takes milliseconds); a host repeating itself on its port less often than that (an ARP request
 * retried every 100 ms or more) is flooded each time. A dropped copy renews the record, so a loop whose copies keep
 * coming stays cut even when a stall of the controller let one through.
 *
 * <p>Confined to the switch's I/O thread (one per switch, as a {@code SwitchLocal}).
 */
final class FloodGuard {
    /** Far longer than a turn of a loop through the controller, far shorter than any retransmission. */
    static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** Within this, the same frame through the same port is a copy too: no host repeats a frame that fast. */
    static final long SAME_PORT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /**
     * A table indexed by the frame's hash, one frame per slot: a lookup costs the hash and one comparison (every
     * flooded PACKET_IN pays it). Two frames sharing a slot within the window only forget each other.
     */
    private static final int SLOTS = 1024;

    private final long[] hashes = new long[SLOTS];
    private final int[] ports = new int[SLOTS];
    private final long[] times = new long[SLOTS];

    /**
     * Whether the frame, in on {@code inPort}, is not a copy of one flooded here (see the class comment). A frame let
     * through is remembered with its port; a copy renews the time only, so the original's port stays on record.
     */
    boolean firstTime(ByteBuffer frame, int totalLength, int inPort, long now) {
        long h = hash(frame, totalLength);
        int slot = (int) (h ^ (h >>> 32)) & (SLOTS - 1);
        long stamp = now == 0 ? 1 : now;
        if (hashes[slot] == h && times[slot] != 0) {
            long age = now - times[slot];
            if (age < SAME_PORT_NANOS || age < WINDOW_NANOS && ports[slot] != inPort) {
                times[slot] = stamp;
                return false;
            }
        }
        hashes[slot] = h;
        ports[slot] = inPort;
        times[slot] = stamp;
        return true;
    }

    /** FNV-1a over the bytes the switch sent and the frame's full length (the bytes may be cut to miss_send_len). */
    static long hash(ByteBuffer frame, int totalLength) {
        long h = 0xcbf29ce484222325L ^ totalLength;
        for (int i = frame.position(); i < frame.limit(); i++) {
            h = (h ^ (frame.get(i) & 0xff)) * 0x100000001b3L;
        }
        return h;
    }
}
