package net.beaconcontroller.openflow.action;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * {@code OFPAT_VENDOR}: a vendor-defined action, kept as the vendor id and the bytes after the 8-byte header.
 *
 * @param vendor the vendor id (an OUI in the low 24 bits, e.g. {@code 0x00002320} for Nicira)
 * @param body   the bytes after the header; a multiple of 8 long, at most 65520 bytes. Copied in and out.
 */
public record OFActionVendor(int vendor, byte[] body) implements OFAction {
    /** {@code OFPAT_VENDOR}. */
    public static final int TYPE = 0xffff;
    /** {@code sizeof(ofp_action_vendor_header)}, the length with an empty body. */
    public static final int HEADER_LENGTH = 8;
    /** Largest body: the total length is a 16-bit multiple of 8. */
    public static final int MAX_BODY_LENGTH = 0xfff8 - HEADER_LENGTH;

    /** @throws IllegalArgumentException naming the field when a value is out of its range */
    public OFActionVendor {
        if (body.length % 8 != 0 || body.length > MAX_BODY_LENGTH) {
            throw new IllegalArgumentException("body must be a multiple of 8 bytes long, at most " + MAX_BODY_LENGTH
                    + ", not " + body.length);
        }
        body = body.clone();
    }

    /** A copy of the body. */
    @Override
    public byte[] body() {
        return body.clone();
    }

    @Override
    public int type() {
        return TYPE;
    }

    @Override
    public int length() {
        return HEADER_LENGTH + body.length;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        buf.putShort((short) TYPE).putShort((short) length()).putInt(vendor).put(body);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OFActionVendor v && vendor == v.vendor && Arrays.equals(body, v.body);
    }

    @Override
    public int hashCode() {
        return 31 * vendor + Arrays.hashCode(body);
    }

    /** {@code vendor:0xVVVVVVVV}, followed by {@code :HEX} with the body when it is not empty. */
    @Override
    public String toString() {
        String id = "vendor:0x" + String.format("%08x", vendor);
        return body.length == 0 ? id : id + ":" + HexFormat.of().formatHex(body);
    }
}
