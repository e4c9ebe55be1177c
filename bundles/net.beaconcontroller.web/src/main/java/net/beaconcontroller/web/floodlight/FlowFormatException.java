package net.beaconcontroller.web.floodlight;

/** A flow, match or action in Floodlight's syntax that cannot be used; the message says why, for the user. */
public final class FlowFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public FlowFormatException(String message) {
        super(message);
    }
}
