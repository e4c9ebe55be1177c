package net.beaconcontroller.openflow;

/**
 * The one error the OpenFlow codec raises for bad input: a wrong length, an unknown type or a truncated body.
 * The connection that produced it is closed; the message says what was wrong and where.
 */
public class OFParseException extends Exception {
    private static final long serialVersionUID = 1L;

    public OFParseException(String message) {
        super(message);
    }
}
