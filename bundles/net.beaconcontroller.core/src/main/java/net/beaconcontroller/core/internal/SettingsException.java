package net.beaconcontroller.core.internal;

/** A {@code beacon.properties} problem, as the one line start-up prints before it stops. */
public class SettingsException extends Exception {
    private static final long serialVersionUID = 1L;

    public SettingsException(String message) {
        super(message);
    }
}
