package net.beaconcontroller.packet;

/**
 * The one error the packet parsers raise for malformed input: a truncated header, a length field that points past
 * the data, an impossible header length, a TLV or option running past its container. The message names the layer,
 * the field and the offending value. Bad checksums are never a reason for it; see the {@code checksumValid} methods.
 */
public class PacketParseException extends Exception {
    private static final long serialVersionUID = 1L;

    public PacketParseException(String message) {
        super(message);
    }
}
