package net.beaconcontroller.core;

import java.util.List;

/**
 * The validated contents of {@code beacon.properties}: every key Beacon knows, with its value or its default. Obtain
 * it from {@link IBeaconProvider#getSettings()}. Values were checked when the controller started, so these getters
 * never fail for a key listed in the configuration reference ({@code docs/configuration.md}).
 */
public interface BeaconSettings {
    int getInt(String key);

    boolean getBoolean(String key);

    String getString(String key);

    /** A comma-separated value as a list of trimmed, non-empty items. */
    List<String> getList(String key);

    /** Where the settings were read from, for messages and the console. */
    String source();
}
