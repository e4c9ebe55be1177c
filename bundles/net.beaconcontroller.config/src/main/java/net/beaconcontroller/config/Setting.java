package net.beaconcontroller.config;

/**
 * One setting as Beacon has it now.
 *
 * @param key          as in {@code beacon.properties}, e.g. {@code routing.idleTimeout}
 * @param value        the value in effect, as written in the file
 * @param defaultValue the value when none is given
 * @param source       where the value came from: the file, a {@code -D} option, the console, or the default
 * @param allowed      what may be written, e.g. "an integer from 0 to 65535"
 * @param description  what it does, from the owning bundle's metatype
 */
public record Setting(String key, String value, String defaultValue, String source, String allowed,
        String description) {
}
