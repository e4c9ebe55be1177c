package net.beaconcontroller.packet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Buffers that hold some bytes between their position and limit, in the middle of bytes nobody may read: whatever
 * reads outside the view sees the garbage and gives itself away.
 */
final class Views {
    /** What the view's buffer is like. */
    enum Kind {
        HEAP, DIRECT, READ_ONLY, LITTLE_ENDIAN
    }

    private static final int BEFORE = 23;
    private static final int AFTER = 41;

    private Views() {
    }

    /** {@code content} between position and limit of a buffer of {@code kind}, every other byte {@code garbage}. */
    static ByteBuffer embedded(byte[] content, Kind kind, byte garbage) {
        var all = new byte[BEFORE + content.length + AFTER];
        Arrays.fill(all, garbage);
        System.arraycopy(content, 0, all, BEFORE, content.length);
        ByteBuffer b = switch (kind) {
            case HEAP -> ByteBuffer.wrap(all);
            case DIRECT -> ByteBuffer.allocateDirect(all.length).put(all);
            case READ_ONLY -> ByteBuffer.wrap(all).asReadOnlyBuffer();
            case LITTLE_ENDIAN -> ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        };
        return b.limit(BEFORE + content.length).position(BEFORE);
    }

    /** The buffer's bytes from 0 to its capacity, to tell that nothing was written. */
    static byte[] all(ByteBuffer b) {
        var copy = new byte[b.capacity()];
        b.duplicate().clear().get(copy);
        return copy;
    }
}
