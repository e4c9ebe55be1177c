package net.beaconcontroller.core;

/** Completes the futures of a switch that left before answering. */
public class SwitchDisconnectedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SwitchDisconnectedException(String message) {
        super(message);
    }
}
