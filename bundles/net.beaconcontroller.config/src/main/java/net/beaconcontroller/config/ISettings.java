package net.beaconcontroller.config;

import java.util.List;
import java.util.Optional;

/**
 * Every bundle's settings, read and changed the way {@code beacon:config} does: a change is checked against the
 * owning bundle's metatype, handed to its component, and undone if the component refuses it.
 */
public interface ISettings {
    /** What a change came to: applied (live or by restarting a component, as {@code message} says) or refused. */
    record Outcome(boolean applied, String message) {
    }

    List<Setting> getSettings();

    Optional<Setting> getSetting(String key);

    /**
     * Sets {@code key} to {@code value} now (and in the file with {@code save}); waits until the component took
     * it. A refused value leaves everything as it was; the outcome says why.
     */
    Outcome set(String key, String value, boolean save) throws InterruptedException;
}
