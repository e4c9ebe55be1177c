package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFParseException;

/** Length checks shared by the body readers. */
final class StatsBodies {
    private StatsBodies() {
    }

    /** Checks that the body has exactly the fixed size of its type and that the buffer holds it. */
    static void expect(ByteBuffer buf, int length, int expected, String what) throws OFParseException {
        if (length != expected) {
            throw new OFParseException(what + " body must be " + expected + " bytes, not " + length);
        }
        available(buf, length, what);
    }

    /** Checks that the buffer holds {@code length} bytes from its position. */
    static void available(ByteBuffer buf, int length, String what) throws OFParseException {
        if (length < 0 || length > buf.remaining()) {
            throw new OFParseException(what + " body of " + length + " bytes but " + buf.remaining() + " left");
        }
    }

    /** Checks that a body of fixed-size entries is a whole number of entries; returns the count. */
    static int entries(ByteBuffer buf, int length, int entryLength, String what) throws OFParseException {
        available(buf, length, what);
        if (length % entryLength != 0) {
            throw new OFParseException(what + " body of " + length + " bytes is not a multiple of the "
                    + entryLength + "-byte entry");
        }
        return length / entryLength;
    }
}
